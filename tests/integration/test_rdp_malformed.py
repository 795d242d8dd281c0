#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bad and stalled RDP connections are dropped alone.

oriel serves RDP with --rdp-handshake-timeout 2 (more on slow builds).
Each of these is closed, and oriel goes on:
- bytes that are no RDP at all;
- an X.224 Connection Request asking for TLS, then garbage instead of a
  TLS ClientHello;
- an X.224 Connection Request asking for TLS, then silence: FreeRDP's
  TLS handshake waits for the client on that guest's own thread, so the
  compositor answers while it waits, and the handshake deadline ends it;
- half an X.224 header, then silence: the handshake deadline;
- with max-pending-per-address = 2 ([rdp] in the config file), five
  silent connections: the three oldest give way, as the guests' cap says.
Then a real client logs in and sees the session.
"""
import os
import socket
import tempfile
import time
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect
from test_rdp_pixels import COLOUR, check_window_shows

PASSWORD = "sturdy-Pass-2718"
# The handshake deadline, s: longer on slow (sanitizer) builds.
DEADLINE = max(2, round(harness.T(2)))
# TPKT, X.224 Connection Request, RDP_NEG_REQ for PROTOCOL_SSL.
X224_CR_TLS = bytes([0x03, 0x00, 0x00, 0x13, 0x0e, 0xe0, 0, 0, 0, 0, 0,
                     0x01, 0x00, 0x08, 0x00, 0x01, 0x00, 0x00, 0x00])


def connect(port):
    return socket.create_connection((rdp.LOCALHOST, port), timeout=5)


def closed_by_server(sock, timeout):
    """True once the server closes sock (EOF or reset) within timeout."""
    sock.settimeout(harness.T(timeout))
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def x224_confirm(sock):
    """Reads one TPKT; True if it is an X.224 Connection Confirm."""
    sock.settimeout(harness.T(10))
    data = b""
    while len(data) < 4 or len(data) < int.from_bytes(data[2:4], "big"):
        chunk = sock.recv(4096)
        if not chunk:
            return False
        data += chunk
    return data[0] == 3 and (data[5] & 0xf0) == 0xd0


def still_open(sock):
    """True while the server has not closed sock (nothing to read yet)."""
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except ConnectionResetError:
        return False
    finally:
        sock.setblocking(True)


def closes(s, what):
    n = s.log_text().count("RDP: closing the connection from")
    return lambda: (s.log_text().count("RDP: closing the connection from") > n or
                    (_ for _ in ()).throw(NotYet("%s still open" % what)))


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-malformed-") as d:
        users = vnc.write_users_file(Path(d), [("sturdy", PASSWORD)])
        port = vnc.free_port()
        args = rdp.rdp_args(port, "--rdp-users", users, "--rdp-handshake-timeout", DEADLINE)
        config = Path(d) / "oriel.ini"
        config.write_text("[rdp]\nmax-pending-per-address = 2\n")
        with Session(outputs=["800x600"], args=args, config=config) as s:
            s.colour_window_at(COLOUR, (300, 200), (240, 160), "green", "org.oriel.test.g")
            rdp.wait_listening(s, port)
            s.park_pointer()

            junk = connect(port)
            junk.sendall(os.urandom(64) + b"GET / HTTP/1.1\r\n\r\n")
            expect(closed_by_server(junk, 10), "oriel kept a connection that sent junk")
            junk.close()

            bad_tls = connect(port)
            bad_tls.sendall(X224_CR_TLS)
            time.sleep(0.2)
            bad_tls.sendall(b"\x16\x03\x01\x00\x05" + os.urandom(5) + os.urandom(300))
            expect(closed_by_server(bad_tls, 10),
                   "oriel kept a connection with garbage for a TLS hello")
            bad_tls.close()

            stalled = connect(port)
            check = closes(s, "the stalled TLS handshake")
            stalled.sendall(X224_CR_TLS)
            expect(x224_confirm(stalled), "no X.224 Connection Confirm to a request for TLS")
            # FreeRDP now waits for a TLS ClientHello that never comes.
            s.orielctl("windows")
            expect(still_open(stalled), "the compositor answered only once the stalled "
                   "TLS handshake was dropped: the handshake held up its loop")
            s.wait_for(check, timeout=15, what="the deadline to drop the stalled TLS handshake")
            stalled.close()

            half = connect(port)
            check = closes(s, "the half X.224 header")
            half.sendall(X224_CR_TLS[:5])
            s.wait_for(check, timeout=15, what="the handshake deadline")
            expect("no logon within %d s" % DEADLINE in s.log_text(),
                   "the deadline was not logged")
            half.close()

            silent = [connect(port) for _ in range(5)]
            s.orielctl("windows")  # oriel has accepted them all
            # The two newest are kept (looked at well before their 2 s deadline)...
            for sock in silent[3:]:
                sock.settimeout(0.2)
                try:
                    expect(sock.recv(1) != b"", "a newest silent connection was closed")
                except socket.timeout:
                    pass
            # ...and the three oldest gave way.
            for i, sock in enumerate(silent[:3]):
                expect(closed_by_server(sock, 1), "silent connection %d of 5 was kept" % (i + 1))
            for sock in silent:
                sock.close()

            s.check_alive()
            with rdp.client_in_xvfb(s, port, "sturdy", PASSWORD, ["/size:800x600"]) \
                    as (xvfb, client):
                check_window_shows(s, xvfb, client, (240, 160), (300, 200))


if __name__ == "__main__":
    harness.run(main)
