#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""oriel-gateway's RDP port on an IPv6 address, reached by its literal.

FreeRDP 2's clients (xfreerdp, Remmina, the test client) send the address
they were given as the TLS server name (SNI), which TLS forbids for
addresses (RFC 6066). GnuTLS, which runs the gateway's TLS, refuses an
IPv6 literal there ("disallowed SNI server name"), with no way to ignore
it; an IPv4 literal passes for a host name. So:
- the test client, connecting to ::1 by its literal, fails TLS, and the
  gateway's log says why and what to do (connect to a host name);
- the same client reaches her session through the same gateway on
  127.0.0.1, so the port and the login are not at fault.
"""

import gateway
import harness
import rdp
import vnc
from harness import NotYet, expect, expect_eq

OUTPUT = (1024, 768)
REASON = ("the client named this server by an address (an IPv6 literal?) in its TLS "
          "SNI, which TLS forbids: connect to a host name instead")


def main():
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\noutput = %dx%d\n" % (
        gateway.XTERM_COMMAND, OUTPUT[0], OUTPUT[1]))
    try:
        port6 = vnc.free_port()
        front = gateway.Front(host, "--rdp", "[::1]:%d" % port6, rdp=True, vnc=False)
        password = rdp.write_secret(front, host.passwords["alice"])
        client = rdp.RdpClient(front, port6, user=host.users["alice"], password_file=password,
                               size=OUTPUT, host="::1", name="rdpclient-ipv6")
        line = client.wait_line(lambda l: l in ("tls-failed", "disconnected", "auth-failed")
                                or l.startswith("connected "), what="the client's outcome")
        expect_eq(line, "tls-failed", "the client to ::1 by its literal")
        front.wait_for(lambda: ("RDP: closing the connection from ::1: the TLS handshake "
                                "failed: " + REASON) in front.log() or
                       NotYet("no reason in the gateway's log"),
                       what="the gateway to log why TLS failed")
        client.kill()
        expect_eq(host.sessions(), [], "sessions after the refused client")

        client = rdp.RdpClient(front, front.rdp_port, user=host.users["alice"],
                               password_file=password, size=OUTPUT)
        expect_eq(client.wait_connected(timeout=40)[:2], OUTPUT, "the desktop's size")
        gateway.wait_her_xterm(client)
        client.kill()
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
