#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A flood of stalled handshakes cannot push out an RDP logon under way.

- A session serves RDP with accounts and [rdp] max-pending = 4. Threads
  open connections without end, each from an address of its own
  (127.0.2.x and on), that stall: a Connection Request asking for TLS,
  then half a ClientHello, at once or after the Connection Confirm;
- a client logs on from 127.0.0.1 with an account while the flood goes
  on, and gets connected; oriel logs the logon;
- the flood made the total cap give way (logged), and every connection of
  it is closed, at the latest at the handshake deadline.
"""
import tempfile
import time
from pathlib import Path

import gateway
import harness
import rdp
import vnc
from harness import Session, expect

DEADLINE = 6  # --rdp-handshake-timeout, seconds
PASSWORD = "flood-Pass-8812"
PENDING = 4  # [rdp] max-pending
# TPKT, X.224 Connection Request, RDP_NEG_REQ for PROTOCOL_SSL.
X224_CR_TLS = bytes([0x03, 0x00, 0x00, 0x13, 0x0e, 0xe0, 0, 0, 0, 0, 0,
                     0x01, 0x00, 0x08, 0x00, 0x01, 0x00, 0x00, 0x00])


def after_confirm(s):
    s.sendall(X224_CR_TLS)
    expect(len(vnc.recv_exactly(s, 19, 10)) == 19, "no Connection Confirm")
    s.sendall(gateway.PARTIAL_CLIENT_HELLO)


class Flood(gateway.Flood):
    def one(self, i):
        source = "127.0.%d.%d" % (2 + (i // 250) % 2, i % 250 + 1)
        if i % 2:
            self.open(source, lambda s: s.sendall(X224_CR_TLS + gateway.PARTIAL_CLIENT_HELLO))
        else:
            self.open(source, after_confirm)


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-flood-") as d:
        users = vnc.write_users_file(Path(d), [("alice", PASSWORD)])
        port = vnc.free_port()
        config = Path(d) / "oriel.ini"
        config.write_text("[rdp]\nmax-pending = %d\n" % PENDING)
        args = rdp.rdp_args(port, "--rdp-users", users, "--rdp-handshake-timeout", DEADLINE)
        with Session(outputs=["800x600"], args=args, config=config) as s:
            rdp.wait_listening(s, port)
            flood = Flood((rdp.LOCALHOST, port))
            for i in range(2 * PENDING):
                flood.one(i)
            opened_before = flood.n
            flood.start(n_threads=8)
            try:
                start = time.monotonic()
                secret = rdp.write_secret(s, PASSWORD)
                client = rdp.RdpClient(s, port, user="alice", password_file=secret)
                client.wait_connected(timeout=30)
                harness.log("alice connected after %.1f s; %d flood connections so far"
                            % (time.monotonic() - start, flood.n))
            finally:
                flood.finish()
            expect(not flood.errors, "the flood could not connect: %s" % flood.errors[:3])
            expect(flood.n - opened_before >= 2 * PENDING,
                   "the flood went on during the logon (%d connections)" % flood.n)
            text = s.log_text()
            expect('logged on as "alice"' in text, "oriel did not log alice's logon")
            expect("too many connections logging on" in text,
                   "the flood did not fill the total cap")
            flood.expect_closed_by_deadline(s, DEADLINE)
            expect(client.alive(), "alice was disconnected")
            flood.close()
            client.kill()


if __name__ == "__main__":
    harness.run(main)
