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

import time

import gateway
import harness
from harness import expect, log

DEADLINE = 6  # --handshake-timeout, seconds
SILENT = 300
HALF_TLS_ADDRESSES = 100  # 127.0.0.10 and on


class Flood(gateway.Flood):
    def silent(self):
        self.open("127.0.0.2")

    def half_tls(self, i):
        self.open("127.0.0.%d" % (10 + i % HALF_TLS_ADDRESSES), self.half_x509plain)

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
        before = flood.n
        flood.start()
        try:
            start = time.monotonic()
            v = front.viewer("alice", name="alice", bind="127.0.0.250")
            v.wait_connected(timeout=30)
            box = v.wait_framebuffer(gateway.xterm_box, timeout=30, what="her xterm")
            at_login = flood.n
            during = at_login - before
            log("alice got in and sees her xterm at %r after %.1f s; %d flood connections "
                "opened meanwhile" % (box, time.monotonic() - start, during))
            # How many fit in her login depends on the machine's load; what
            # matters is that the flood kept going until she was in, and on.
            expect(during >= 10, "the flood went on during the login (%d connections)"
                   % during)
            harness.wait_for(lambda: flood.n > at_login, harness.T(10),
                             "the flood to go on after the login")
        finally:
            flood.finish()
        flood.expect_closed_by_deadline(front, DEADLINE)
        host.her_session("alice")
        expect(front.log().count("logged in from") == 1, "one login in the gateway's log")
        v.send("quit")
        v.wait(20)
        flood.close()
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
