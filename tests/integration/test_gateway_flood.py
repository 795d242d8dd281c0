#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Flooding the gateway before authentication locks nobody out:

- hundreds of silent TCP connections from 127.0.0.2, and half-done TLS
  handshakes (VeNCrypt X509Plain chosen, then part of a ClientHello) from
  many addresses 127.0.0.x, are opened before alice logs in and go on
  being opened while she does;
- alice, from another address, logs in through the test viewer and gets
  a frame showing her xterm;
- every connection of the flood is closed by the gateway, at the latest
  at its handshake deadline; none is let in.
"""

import struct
import time

import gateway
import harness
import vnc
from harness import expect, log

DEADLINE = 6  # --handshake-timeout, seconds
SILENT = 300
HALF_TLS_ADDRESSES = 100  # 127.0.0.10 and on
X509_PLAIN = 262


class Flood(gateway.Flood):
    def silent(self):
        self.open("127.0.0.2")

    def half_tls(self, i):
        self.open("127.0.0.%d" % (10 + i % HALF_TLS_ADDRESSES), self.half_tls_steps)

    @staticmethod
    def half_tls_steps(s):
        expect(vnc.recv_exactly(s, 12, 10).startswith(b"RFB 003."), "no RFB greeting")
        s.sendall(b"RFB 003.008\n")
        (n,) = vnc.recv_exactly(s, 1, 10)
        expect(vnc.VENCRYPT in vnc.recv_exactly(s, n, 10), "no VeNCrypt offered")
        s.sendall(bytes([vnc.VENCRYPT]))
        vnc.recv_exactly(s, 2, 10)
        s.sendall(b"\x00\x02")
        (ok, count) = vnc.recv_exactly(s, 2, 10)
        subtypes = struct.unpack(">%dI" % count, vnc.recv_exactly(s, 4 * count, 10))
        expect(ok == 0 and X509_PLAIN in subtypes, "no X509Plain: %r" % (subtypes,))
        s.sendall(struct.pack(">I", X509_PLAIN))
        expect(vnc.recv_exactly(s, 1, 10) == b"\x01", "X509Plain not accepted")
        s.sendall(gateway.PARTIAL_CLIENT_HELLO)

    def one(self, i):
        if i % 2:
            self.silent()
        else:
            self.half_tls(i // 2)


def main():
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\n" %
                        gateway.XTERM_COMMAND)
    try:
        front = gateway.Front(host, "--handshake-timeout", DEADLINE)
        flood = Flood(front.address)
        for _ in range(SILENT):
            flood.silent()
        for i in range(HALF_TLS_ADDRESSES):
            flood.half_tls(i)
        log("%d connections open before the login" % flood.n)
        flood.start()
        try:
            start = time.monotonic()
            v = front.viewer("alice", name="alice", bind="127.0.0.250")
            v.wait_connected(timeout=30)
            box = v.wait_framebuffer(gateway.xterm_box, timeout=30, what="her xterm")
            log("alice got in and sees her xterm at %r after %.1f s; %d flood connections "
                "so far" % (box, time.monotonic() - start, flood.n))
        finally:
            flood.finish()
        expect(flood.n >= SILENT + HALF_TLS_ADDRESSES + 50,
               "the flood went on during the login (%d connections)" % flood.n)
        last = max(opened for _s, opened in flood.sockets)

        gateway.wait_all_closed(front, flood.sockets, DEADLINE + 20)
        # The last ones by their deadline (with slack for a loaded machine).
        expect(time.monotonic() - last <= harness.T(DEADLINE + 10),
               "the flood's last connections were closed %.1f s after they opened" %
               (time.monotonic() - last))
        host.her_session("alice")
        expect(front.log().count("logged in from") == 1, "one login in the gateway's log")
        v.send("quit")
        v.wait(20)
        flood.close()
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
