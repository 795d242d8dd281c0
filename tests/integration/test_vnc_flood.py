#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A flood of stalled handshakes cannot push out a login under way.

- A session listens with accounts (VeNCrypt X509Plain) and
  --vnc-max-pending 8. Two threads open connections without end, each
  from an address of its own (127.0.2.x and on), that stall in their TLS
  handshake: three in four send half a ClientHello at once (a TLS hello first), one after
  choosing VeNCrypt X509Plain;
- alice logs in from 127.0.0.5 with the test viewer while the flood goes
  on, and gets a frame; oriel logs her login;
- the flood made the total cap give way (logged), and every connection of
  it is closed, at the latest at the handshake deadline.
"""
import tempfile
import time

import gateway
import harness
import vnc
from harness import Session, expect

DEADLINE = 6  # --vnc-handshake-timeout, seconds
PASSWORD = "flood-Pass-5527"
PENDING = 8  # --vnc-max-pending


class Flood(gateway.Flood):
    def one(self, i):
        source = "127.0.%d.%d" % (2 + (i // 250) % 2, i % 250 + 1)
        if i % 4:
            self.open(source, lambda s: s.sendall(gateway.PARTIAL_CLIENT_HELLO))
        else:
            self.open(source, self.half_x509plain)


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-flood-") as d:
        users = vnc.write_users_file(d, [("alice", PASSWORD)])
        secret = vnc.write_secret_in(d, "alice", PASSWORD)
        port = vnc.free_port()
        with Session(outputs=["800x600"],
                     args=["--vnc", "%s:%d" % (vnc.LOCALHOST, port), "--vnc-users", str(users),
                           "--vnc-handshake-timeout", str(DEADLINE),
                           "--vnc-max-pending", str(PENDING)]) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            cert, _fp, _made = vnc.certificate(s)
            flood = Flood((vnc.LOCALHOST, port))
            for i in range(2 * PENDING):
                flood.one(i)
            opened_before = flood.n
            flood.start(n_threads=6)
            try:
                start = time.monotonic()
                v = vnc.Viewer(s, vnc.tcp(port), name="alice", user="alice",
                               password_file=secret, ca=cert, bind="127.0.0.5")
                v.wait_connected(timeout=30)
                v.wait_line("frame", timeout=30)
                harness.log("alice got a frame after %.1f s; %d flood connections so far"
                            % (time.monotonic() - start, flood.n))
            finally:
                flood.finish()
            expect(not flood.errors, "the flood could not connect: %s" % flood.errors[:3])
            expect(flood.n - opened_before >= 2 * PENDING,
                   "the flood went on during the login (%d connections)" % flood.n)
            text = s.log_text()
            expect('viewer 127.0.0.5 logged in as "alice"' in text,
                   "oriel did not log alice's login")
            expect("gives way to a newer connection (--vnc-max-pending)" in text,
                   "the flood did not fill the total cap")
            flood.expect_closed_by_deadline(s, DEADLINE)
            expect(v.alive(), "alice was disconnected")
            flood.close()
            v.close()


if __name__ == "__main__":
    harness.run(main)
