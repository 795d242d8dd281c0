#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Malformed VeNCrypt messages drop only the connection that sent them.

oriel serves accounts (--vnc-users: VeNCrypt with X509Plain only) with a
handshake deadline of 4 s.  A libvncclient viewer logs in first.  Then raw
clients (from 127.0.0.30) send, each on its own connection:
- a VeNCrypt version other than 0.2 (oriel answers 255 and closes);
- a sub-type that was not offered (X509None with accounts configured:
  oriel answers 0 and a failed SecurityResult, and closes);
- a security type that was not offered (None);
- garbage instead of a TLS ClientHello;
- half a ClientHello, and a whole one with nothing after it (a TLS
  handshake that stops halfway): both closed at the deadline;
- inside TLS, a Plain password length of 0xFFFFFFFF (refused, with the
  reason, and closed), a user name with a NUL byte, lengths of 0, and a
  user name with a newline and an escape sequence (which must not start
  a log line of its own or reach the log raw).
Each is closed by oriel; meanwhile the first viewer stays connected and
keeps getting updates (a window opened afterwards reaches it), and a new
viewer still logs in.
"""
import socket
import ssl
import struct
import tempfile
from pathlib import Path

import harness
import vnc
from harness import Session, T, expect, expect_eq

FIRST = (0x30, 0x90, 0xd0)
SECOND = (0xd0, 0xc0, 0x20)
PASSWORD = "malformed-Pass-1177"
SOURCE = "127.0.0.30"
# The handshake deadline, longer on slow machines (ORIEL_TEST_TIMEOUT_SCALE).
DEADLINE = max(4, int(round(T(4))))


def connect(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((SOURCE, 0))
    s.settimeout(T(10))
    s.connect((vnc.LOCALHOST, port))
    return s


def vencrypt_until_subtype(port):
    """A connection that chose VeNCrypt 0.2 and read the sub-types."""
    s = connect(port)
    expect(vnc.recv_exactly(s, 12).startswith(b"RFB 003."), "no RFB greeting")
    s.sendall(b"RFB 003.008\n")
    (n,) = vnc.recv_exactly(s, 1)
    expect_eq(list(vnc.recv_exactly(s, n)), [vnc.VENCRYPT], "security types")
    s.sendall(bytes([vnc.VENCRYPT]))
    expect_eq(vnc.recv_exactly(s, 2), b"\x00\x02", "VeNCrypt version")
    s.sendall(b"\x00\x02")
    expect_eq(vnc.recv_exactly(s, 1), b"\x00", "VeNCrypt version accepted")
    (count,) = vnc.recv_exactly(s, 1)
    subtypes = struct.unpack(">%dI" % count, vnc.recv_exactly(s, 4 * count))
    expect_eq(list(subtypes), [vnc.X509_PLAIN], "VeNCrypt sub-types")
    return s


def x509plain(port):
    """A connection that chose X509Plain and got the go-ahead for TLS."""
    s = vencrypt_until_subtype(port)
    s.sendall(struct.pack(">I", vnc.X509_PLAIN))
    expect_eq(vnc.recv_exactly(s, 1), b"\x01", "the go-ahead for TLS")
    return s


def client_hello():
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname="localhost")
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


def in_tls(port, cert):
    s = x509plain(port)
    context = ssl.create_default_context(cafile=str(cert))
    return context.wrap_socket(s, server_hostname=vnc.LOCALHOST)


def expect_closed(sock, what, timeout=20):
    expect(vnc.closed_by_peer(sock, timeout), "oriel did not close the connection "
           "that sent %s" % what)
    sock.close()


def expect_refused(tls, what, reason=None):
    """A failed SecurityResult (with its reason), then the close."""
    result = vnc.recv_exactly(tls, 4)
    expect_eq(result, b"\x00\x00\x00\x01", "SecurityResult after %s" % what)
    (n,) = struct.unpack(">I", vnc.recv_exactly(tls, 4))
    text = vnc.recv_exactly(tls, n).decode("utf-8", "replace")
    if reason:
        expect(reason in text, "the reason after %s is %r" % (what, text))
    expect_closed(tls, what)


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-malformed-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("alice", PASSWORD)])
        secret = vnc.write_secret_in(d, "alice", PASSWORD)
        port = vnc.free_port()
        args = vnc.vnc_args(port, "--vnc-users", users, "--vnc-handshake-timeout", DEADLINE)
        with Session(outputs=["800x600"], args=args) as s:
            s.colour_window_at(FIRST, (200, 150), (50, 50), "first", "org.oriel.test.first")
            vnc.wait_listening(s, vnc.tcp(port))
            cert, _fp, _made = vnc.certificate(s)
            v = vnc.Viewer(s, vnc.tcp(port), name="before", user="alice",
                           password_file=secret, ca=cert)
            v.wait_connected()
            v.wait_colour((50, 50, 200, 150), FIRST, what="the first window at the viewer")

            # Before TLS.
            sock = vencrypt_until_subtype(port)
            sock.close()
            sock = connect(port)
            vnc.recv_exactly(sock, 12)
            sock.sendall(b"RFB 003.008\n")
            vnc.recv_exactly(sock, 2)
            sock.sendall(bytes([vnc.VENCRYPT]))
            vnc.recv_exactly(sock, 2)
            sock.sendall(b"\x00\x01")
            expect_eq(vnc.recv_exactly(sock, 1), b"\xff", "answer to VeNCrypt 0.1")
            expect_closed(sock, "VeNCrypt version 0.1")

            sock = vencrypt_until_subtype(port)
            sock.sendall(struct.pack(">I", vnc.X509_NONE))
            expect_eq(vnc.recv_exactly(sock, 1), b"\x00", "answer to X509None")
            expect_refused(sock, "X509None, which was not offered")

            sock = connect(port)
            vnc.recv_exactly(sock, 12)
            sock.sendall(b"RFB 003.008\n")
            vnc.recv_exactly(sock, 2)
            sock.sendall(b"\x01")
            expect_refused(sock, "security type None, which was not offered")

            sock = connect(port)
            vnc.recv_exactly(sock, 12)
            sock.sendall(b"RFB 003.008\n")
            vnc.recv_exactly(sock, 2)
            sock.sendall(b"\x13\x00\x02")  # VeNCrypt and its version at once
            vnc.recv_exactly(sock, 3)
            sock.sendall(b"\x00\x00\x01\x06")
            (count,) = vnc.recv_exactly(sock, 1)
            vnc.recv_exactly(sock, 4 * count + 1)
            sock.close()

            # The TLS handshake.
            sock = x509plain(port)
            sock.sendall(b"GET / HTTP/1.1\r\n\r\n" + b"\x00garbage" * 64)
            expect_closed(sock, "garbage instead of a ClientHello")
            hello = client_hello()
            half = x509plain(port)
            half.sendall(hello[:len(hello) // 2])
            whole = x509plain(port)
            whole.sendall(hello)
            deadline_closes = s.log_text().count("no login within %d s" % DEADLINE)
            expect_closed(half, "half a ClientHello")
            expect_closed(whole, "a ClientHello and then nothing")
            expect(s.log_text().count("no login within %d s" % DEADLINE) >= deadline_closes + 2,
                   "oriel does not log that it closed the stalled TLS handshakes at the "
                   "deadline")

            # Plain, inside TLS.
            tls = in_tls(port, cert)
            tls.sendall(struct.pack(">II", 5, 0xFFFFFFFF) + b"alice")
            expect_refused(tls, "a password length of 0xFFFFFFFF", "too long")
            tls = in_tls(port, cert)
            tls.sendall(struct.pack(">II", 0xFFFFFFFF, 4) + b"pass")
            expect_refused(tls, "a user name length of 0xFFFFFFFF", "too long")
            tls = in_tls(port, cert)
            user = b"alice\x00x"
            tls.sendall(struct.pack(">II", len(user), len(PASSWORD)) + user +
                        PASSWORD.encode())
            expect_refused(tls, "a NUL byte in the user name")
            tls = in_tls(port, cert)
            tls.sendall(struct.pack(">II", 0, 0))
            expect_refused(tls, "empty user name and password")
            tls = in_tls(port, cert)
            user = b"mallory\nFORGED: viewer 10.0.0.1 logged in\x1b[2K"
            tls.sendall(struct.pack(">II", len(user), 4) + user + b"pass")
            expect_refused(tls, "a user name with a newline and an escape sequence")
            forged = [l for l in s.log_text().splitlines()
                      if l.startswith("FORGED") or "\x1b" in l]
            expect(not forged, "a user name from the network forged or coloured a log "
                   "line: %r" % forged)

            s.check_alive()
            expect(v.alive(), "the viewer connected before was disconnected")
            s.colour_window_at(SECOND, (200, 150), (400, 300), "second",
                               "org.oriel.test.second")
            v.wait_colour((400, 300, 200, 150), SECOND,
                          what="a window opened after the malformed messages, at the "
                          "viewer connected before")
            w = vnc.Viewer(s, vnc.tcp(port), name="after", user="alice",
                           password_file=secret, ca=cert)
            w.wait_connected()
            w.wait_colour((400, 300, 200, 150), SECOND, what="the new viewer's pixels")
            v.close()
            w.close()


if __name__ == "__main__":
    harness.run(main)
