#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Flooding the gateway's RDP port before authentication locks nobody out:

- silent TCP connections from 127.0.0.2, half a Connection Request from
  127.0.0.3, and whole first Connection Requests whose TLS handshake
  then stalls halfway (the gateway's Connection Confirm taken, part of a
  ClientHello sent), from many addresses 127.0.0.x, are opened before
  alice logs in and go on being opened while she does;
- alice, from 127.0.0.1, logs in through the libfreerdp test client and
  gets her xterm;
- every connection of the flood is closed by the gateway, at the latest
  at its handshake deadline; none is let in.
"""

import struct

import gateway
import harness
from harness import expect, log
import rdp
import vnc

DEADLINE = 6  # --handshake-timeout, seconds
SILENT = 150
STALLED_ADDRESSES = 60  # 127.0.0.10 and on
# A first connection's Connection Request: a cookie, and TLS asked for.
FIRST_REQUEST = (lambda body: bytes([3, 0, 0, 11 + len(body), 6 + len(body), 0xe0, 0, 0, 0, 0,
                                     0]) + body)(b"Cookie: mstshash=flood\r\n" +
                                                 struct.pack("<BBHI", 1, 0, 8, 1))


def stalled_tls(s):
    """The first Connection Request, the gateway's Confirm, half a ClientHello."""
    s.sendall(FIRST_REQUEST)
    expect(len(vnc.recv_exactly(s, 19, 10)) == 19, "no Connection Confirm")
    s.sendall(gateway.PARTIAL_CLIENT_HELLO)


class Flood(gateway.Flood):
    def one(self, i):
        # Every other one waits for the gateway's Confirm, as the VNC flood's
        # half-done handshakes wait for its answers.
        if i % 2:
            self.open("127.0.0.%d" % (10 + i % STALLED_ADDRESSES), stalled_tls)
        elif i % 4:
            self.open("127.0.0.3", lambda s: s.sendall(FIRST_REQUEST[:7]))
        else:
            self.open("127.0.0.2")


def main():
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\n" %
                        gateway.XTERM_COMMAND)
    try:
        front = gateway.Front(host, "--handshake-timeout", DEADLINE, rdp=True, vnc=False)
        flood = Flood(("127.0.0.1", front.rdp_port))
        for i in range(SILENT + STALLED_ADDRESSES):
            flood.one(i)
        log("%d connections open before the login" % flood.n)
        flood.start()
        try:
            password = rdp.write_secret(front, host.passwords["alice"])
            client = rdp.RdpClient(front, front.rdp_port, user=host.users["alice"],
                                   password_file=password)
            client.wait_connected(timeout=60)
            box = client.wait_framebuffer(gateway.xterm_box, timeout=30, what="her xterm")
            log("alice got in and sees her xterm at %r; %d flood connections so far" % (
                box, flood.n))
        finally:
            flood.finish()
        expect(flood.n > SILENT + STALLED_ADDRESSES,
               "the flood went on during the login (%d connections)" % flood.n)

        gateway.wait_all_closed(front, flood.sockets, DEADLINE + 30)
        host.her_session("alice")
        expect(front.log().count("logged in from") == 1, "one login in the gateway's log")
        client.kill()
        flood.close()
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
