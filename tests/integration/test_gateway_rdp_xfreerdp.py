#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""alice logs in through oriel-gateway's RDP port with xfreerdp
(/cert:ignore /sec:tls), in an Xvfb of the test's own: it follows the
gateway's Server Redirection, and its window shows her session's xterm
at the size her session draws it. The gateway logs her login and her
hand-over, and never her password.
"""

import gateway
import harness
import rdp
from harness import expect, expect_eq, tool

OUTPUT = (1024, 768)


def main():
    tool("xfreerdp")
    tool("Xvfb")
    tool("xwd")
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\noutput = %dx%d\n" % (
        gateway.XTERM_COMMAND, OUTPUT[0], OUTPUT[1]))
    xvfb = client = None
    try:
        front = gateway.Front(host, rdp=True, vnc=False)
        xvfb = rdp.Xvfb(front, size=(OUTPUT[0] + 200, OUTPUT[1] + 200))
        client = rdp.XFreeRDP(front, xvfb, front.rdp_port, host.users["alice"],
                              host.passwords["alice"],
                              extra=["/size:%dx%d" % OUTPUT])

        gateway.wait_xterm_in_xvfb(front, client, xvfb, "xfreerdp")
        win = client.window()
        expect_eq((win[2], win[3]), OUTPUT, "xfreerdp's window size (her desktop)")
        user = host.users["alice"]
        expect('RDP: "%s" logged in from 127.0.0.1' % user in front.log(),
               "the gateway logs her login")
        expect('RDP: "%s" from 127.0.0.1 went to its session' % user in front.log(),
               "the gateway logs her hand-over")
        expect(host.passwords["alice"] not in front.log(), "her password is in the log")
        rows = host.sessions()
        expect_eq([(r["user"], r["clients"]) for r in rows], [(user, "1")],
                  "--list: her session, with xfreerdp")
    finally:
        if client:
            client.close()
        if xvfb:
            xvfb.close()
        host.close()


if __name__ == "__main__":
    harness.run(main)
