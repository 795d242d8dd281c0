#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Malformed PDUs drop only the client that sent them (issue test 9).

oriel serves RDP with --rdp-handshake-timeout 3, and oriel-test-rdpclient
watches the session all along. Raw sockets then misbehave, each one at a
later step of the handshake:
- an X.224 Connection Request asking for TLS, then silence: FreeRDP waits
  for the ClientHello inside oriel's loop until oriel's watchdog ends it;
- an X.224 Connection Request whose negotiation request has a bad length;
- TLS done, then bytes that are no TPKT at all;
- TLS done, then an MCS Connect Initial whose TPKT is complete but whose
  BER body is cut short (it claims 400 bytes and holds a few);
- TLS done, then the first 60 bytes of an MCS Connect Initial whose TPKT
  header claims 420, then silence (a client that stops mid-PDU);
- TLS done, then silence (a client that stops mid-handshake).
Each of them is closed by oriel (the silent ones by the handshake
deadline). After each, the watching client still gets frames: a patch
that toggles colour shows up in what it decodes. oriel stays alive.
"""
import os
import signal
import socket
import ssl
import struct
import tempfile
import time
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect

COLOUR = (0x20, 0xa0, 0x60)
PATCH_COLOUR = (0xff, 0x00, 0xff)
POS, SIZE = (200, 150), (320, 200)
PATCH = (40, 40, 16, 16)
PASSWORD = "pdu-Pass-6174"
DEADLINE = 3

# TPKT, X.224 Connection Request, RDP_NEG_REQ asking for PROTOCOL_SSL.
X224_CR_TLS = bytes([0x03, 0x00, 0x00, 0x13, 0x0e, 0xe0, 0, 0, 0, 0, 0,
                     0x01, 0x00, 0x08, 0x00, 0x01, 0x00, 0x00, 0x00])
# The same, with the negotiation request's length field saying 0xff00.
X224_CR_BAD_NEG = X224_CR_TLS[:13] + b"\x00\xff" + X224_CR_TLS[15:]


def tpkt(payload):
    """TPKT + X.224 Data header around payload."""
    body = b"\x02\xf0\x80" + payload
    return struct.pack(">BBH", 3, 0, 4 + len(body)) + body


# The start of an MCS Connect-Initial (T.125, BER): application tag 101 with
# a two-byte length of 400, callingDomainSelector, calledDomainSelector,
# upwardFlag, then the first fields of targetParameters.
MCS_CI_HEAD = (b"\x7f\x65\x82\x01\x90" + b"\x04\x01\x01" + b"\x04\x01\x01" + b"\x01\x01\xff" +
               b"\x30\x19\x02\x01\x22\x02\x01\x02\x02\x01\x00\x02\x01\x01")


def connect(port):
    return socket.create_connection((rdp.LOCALHOST, port), timeout=harness.T(10))


def tls_after_x224(port):
    """A connection that has done X.224 (asking for TLS) and the TLS handshake."""
    sock = connect(port)
    sock.sendall(X224_CR_TLS)
    got = b""
    while len(got) < 19:
        data = sock.recv(19 - len(got))
        expect(data, "oriel closed the connection before its X.224 Connection Confirm")
        got += data
    expect(got[5] == 0xd0, "no X.224 Connection Confirm: %s" % got.hex())
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx.wrap_socket(sock)


def closed(sock, timeout):
    """True once oriel closes sock (EOF, reset, or a TLS close) within timeout."""
    deadline = time.monotonic() + harness.T(timeout)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        sock.settimeout(left)
        try:
            if not sock.recv(65536):
                return True
        except socket.timeout:
            return False
        except (ConnectionError, ssl.SSLError, OSError):
            return True


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-pdu-") as d:
        users = vnc.write_users_file(Path(d), [("pdu", PASSWORD)])
        port = vnc.free_port()
        args = rdp.rdp_args(port, "--rdp-users", users, "--rdp-handshake-timeout", DEADLINE)
        with Session(outputs=["1024x768"], args=args) as s:
            colour = rdp.patch_window_at(s, COLOUR, SIZE, POS, PATCH, PATCH_COLOUR)
            rdp.wait_listening(s, port)
            s.park_pointer()
            watcher = rdp.RdpClient(s, port, name="watcher", user="pdu",
                                    password_file=rdp.write_secret(s, PASSWORD),
                                    size=(1024, 768))
            watcher.wait_connected()
            watcher.wait_colour((POS[0] + 100, POS[1] + 100, 100, 50), COLOUR,
                                what="the window")
            patch = (POS[0] + PATCH[0], POS[1] + PATCH[1], PATCH[2], PATCH[3])
            state = {"shown": COLOUR}

            def watcher_gets_frames(after):
                state["shown"] = PATCH_COLOUR if state["shown"] == COLOUR else COLOUR
                os.kill(colour.proc.pid, signal.SIGUSR1)
                watcher.wait_colour(patch, state["shown"],
                                    what="the watching client's next frame after %s" % after)

            def x224_silent():
                sock = connect(port)
                sock.sendall(X224_CR_TLS)
                return sock

            def bad_neg():
                sock = connect(port)
                sock.sendall(X224_CR_BAD_NEG)
                return sock

            def tls_garbage():
                sock = tls_after_x224(port)
                sock.sendall(os.urandom(300))
                return sock

            def mcs_cut_body():
                sock = tls_after_x224(port)
                sock.sendall(tpkt(MCS_CI_HEAD))
                return sock

            def mcs_cut_tpkt():
                sock = tls_after_x224(port)
                head = tpkt(MCS_CI_HEAD + bytes(420))
                sock.sendall(head[:60])
                return sock

            def tls_silent():
                return tls_after_x224(port)

            cases = [("X.224 asking for TLS, then no ClientHello", x224_silent, DEADLINE + 10),
                     ("an X.224 request with a bad negotiation length", bad_neg, DEADLINE + 10),
                     ("garbage after TLS", tls_garbage, 10),
                     ("an MCS Connect Initial with a cut BER body", mcs_cut_body, 10),
                     ("half an MCS Connect Initial, then silence", mcs_cut_tpkt, DEADLINE + 10),
                     ("silence after TLS", tls_silent, DEADLINE + 10)]
            for what, make, timeout in cases:
                started = time.monotonic()
                sock = make()
                expect(closed(sock, timeout), "oriel kept a connection after %s" % what)
                harness.log("%s: closed after %.1fs" % (what, time.monotonic() - started))
                sock.close()
                s.check_alive()
                expect(watcher.alive(), "the watching client was dropped after %s" % what)
                watcher_gets_frames(what)
            s.orielctl("windows")  # the compositor answers
            watcher.close()


if __name__ == "__main__":
    harness.run(main)
