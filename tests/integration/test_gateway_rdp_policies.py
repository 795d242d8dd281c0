#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The gateway's take-over policy across protocols (`reconnect =
take-over`):

- alice is logged in with the VNC test viewer; her login over RDP (the
  libfreerdp test client, redirected by the gateway) takes her session
  over: the VNC viewer is disconnected, the RDP client sees her xterm,
  and it is the same oriel (pid) with one client;
- her next RDP login takes it over from the first RDP client the same way.
"""

import gateway
import harness
import rdp
from harness import expect_eq, log


def main():
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\nreconnect = take-over\n"
                        % gateway.XTERM_COMMAND)
    try:
        front = gateway.Front(host, rdp=True)
        viewer = front.viewer("alice", name="vnc")
        viewer.wait_connected()
        viewer.wait_framebuffer(gateway.xterm_box, timeout=30, what="her xterm over VNC")
        pid = host.her_session("alice")["pid"]
        password = rdp.write_secret(front, host.passwords["alice"])

        clients = []
        for n in (1, 2):
            client = rdp.RdpClient(front, front.rdp_port, name="rdp%d" % n,
                                   user=host.users["alice"], password_file=password)
            client.wait_connected(timeout=40)
            client.wait_framebuffer(gateway.xterm_box, timeout=30, what="her xterm (rdp%d)" % n)
            previous = clients[-1] if clients else viewer
            expect_eq(previous.wait_exit_line(timeout=30), "disconnected",
                      "%s, when rdp%d took over" % (previous.name, n))
            expect_eq(host.her_session("alice")["pid"], pid, "her session after rdp%d" % n)
            clients.append(client)
        log("VNC, then RDP, then RDP again: each took her session over")
        clients[-1].kill()
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
