#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""VeNCrypt X509Plain with a users file, through libvncclient.

oriel runs with `--vnc-users FILE` (lines NAME:HASH, SHA-512 crypt hashes)
on loopback and no certificate of its own, so it makes one:
- the certificate and its key are files of mode 0600 under
  $XDG_STATE_HOME/oriel/tls/, and the fingerprint oriel logs is the
  certificate's SHA-256, and it names localhost, this host, 127.0.0.1
  and ::1;
- with accounts only, a viewer is offered VeNCrypt alone (no None, no
  VncAuth), and inside it X509Plain alone;
- the libvncclient viewer, pinned to that certificate (--ca), logs in as
  alice with X509Plain and its framebuffer has the screenshot's pixels
  (a colour window on the desktop); oriel logs the login with the name;
- a wrong password and an unknown user are refused (auth-failed), logged
  with the name and address, and the password is in no log;
- a viewer pinned to another certificate stops at the TLS handshake and
  never logs in;
- an account marked view-only in the users file logs in as view-only,
  and one with a yescrypt hash logs in;
- a wss viewer is offered VeNCrypt with Plain alone (TLS is outside
  it), as noVNC logs in, and the view-only account logs in view-only;
- a second start with the same XDG_STATE_HOME uses the same certificate,
  and with a password file added, a wss client that trusts only that
  certificate upgrades to a WebSocket and is offered VeNCrypt, then
  VncAuth;
- with --vnc-tls-cert/--vnc-tls-key, VeNCrypt serves that certificate:
  a viewer pinned to it logs in, one pinned to the made one does not.
"""
import os
import stat
import tempfile
from pathlib import Path

import socket
import ssl
import struct

import harness
import test_vnc_tls
import vnc
from harness import Session, expect, expect_eq

COLOUR = (0x20, 0xa0, 0x60)
ALICE_PW = "alice-Pass-7391"
WRONG_PW = "alice-Wrong-1234"
BOB_PW = "bob-Pass-2290"
CAROL_PW = "carol-Pass-5108"
VNC_PW = "vncPw-77"


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-vencrypt-") as d:
        d = Path(d)
        state = d / "state"
        users = vnc.write_users_file(d, [("alice", ALICE_PW),
                                         ("bob", BOB_PW, "view-only"),
                                         ("carol", CAROL_PW)], yescrypt=["carol"])
        alice = vnc.write_secret_in(d, "alice", ALICE_PW)
        bob = vnc.write_secret_in(d, "bob", BOB_PW)
        carol = vnc.write_secret_in(d, "carol", CAROL_PW)
        wrong = vnc.write_secret_in(d, "wrong", WRONG_PW)
        other = vnc.other_certificate(d)
        port = vnc.free_port()
        args = vnc.vnc_args(port, "--vnc-users", users)
        with Session(outputs=["800x600"], args=args,
                     env={"XDG_STATE_HOME": str(state)}) as s:
            s.colour_window_at(COLOUR, (240, 160), (300, 200), "green", "org.oriel.test.g")
            vnc.wait_listening(s, vnc.tcp(port))
            cert, fingerprint, made = vnc.certificate(s)
            expect(made, "oriel did not make a certificate on its first start")
            expect_eq(cert, state / "oriel" / "tls" / "cert.pem", "certificate path")
            for f in (cert, cert.parent / "key.pem"):
                mode = stat.S_IMODE(os.stat(f).st_mode)
                expect(mode == 0o600, "%s has mode %o, not 600" % (f, mode))
            expect_eq(fingerprint, vnc.pem_fingerprint(cert),
                      "the logged fingerprint vs the certificate's SHA-256")
            res = s.run_tool([harness.tool("openssl"), "x509", "-noout", "-ext",
                              "subjectAltName", "-in", cert])
            names = set(n.strip() for n in res.stdout.split("\n", 1)[-1].split(","))
            for name in ("DNS:localhost", "DNS:" + socket.gethostname(),
                         "IP Address:127.0.0.1", "IP Address:0:0:0:0:0:0:0:1"):
                expect(name in names, "the certificate does not name %s: %s"
                       % (name, sorted(names)))

            expect_eq(vnc.security_types(vnc.tcp(port)), [vnc.VENCRYPT],
                      "security types offered with accounts only")
            sock, subtypes = vnc.vencrypt_start(vnc.tcp(port))
            sock.close()
            expect_eq(subtypes, [vnc.X509_PLAIN],
                      "VeNCrypt sub-types offered with accounts only")

            exclude = s.park_pointer()
            v = vnc.Viewer(s, vnc.tcp(port), name="alice", user="alice",
                           password_file=alice, ca=cert)
            expect_eq(v.wait_connected(), (800, 600), "alice's framebuffer size")
            expect("security 19 262" in v.lines,
                   "alice's viewer did not use VeNCrypt X509Plain: %r" % v.lines[:3])

            def same():
                img = v.framebuffer()
                shot = s.screenshot()
                try:
                    vnc.expect_same_pixels(img, shot, exclude=exclude,
                                           what="alice's framebuffer")
                except harness.TestFailure as e:
                    raise harness.NotYet(str(e))
                expect(img.count_colour((300, 200, 240, 160), COLOUR) == 240 * 160,
                       "the colour window is not in alice's framebuffer")
                return True
            s.wait_for(same, what="alice's framebuffer to match the screenshot")
            expect('logged in as "alice" (X509Plain' in s.log_text(),
                   "oriel did not log alice's login with her name and X509Plain")

            # Refusals come from another address, so that the throttle of
            # failed logins does not touch 127.0.0.1.
            bad = vnc.Viewer(s, vnc.tcp(port), name="wrong-password", user="alice",
                             password_file=wrong, ca=cert, bind="127.0.0.9")
            expect_eq((bad.wait_exit_line(), bad.proc.returncode), ("auth-failed", 2),
                      "wrong password: last line and exit status")
            nobody = vnc.Viewer(s, vnc.tcp(port), name="unknown-user", user="mallory",
                                password_file=alice, ca=cert, bind="127.0.0.9")
            expect_eq((nobody.wait_exit_line(), nobody.proc.returncode),
                      ("auth-failed", 2), "unknown user: last line and exit status")
            text = s.log_text()
            for want in ('failed login as "alice" from 127.0.0.9 (X509Plain, 1 in a row)',
                         'failed login as "mallory" from 127.0.0.9 (X509Plain, 2 in a row)'):
                expect(want in text, "oriel's log lacks %r" % want)

            unpinned = vnc.Viewer(s, vnc.tcp(port), name="unpinned", user="alice",
                                  password_file=alice, ca=other, bind="127.0.0.10")
            expect_eq((unpinned.wait_exit_line(), unpinned.proc.returncode),
                      ("tls-failed", 4), "viewer pinned to another certificate")
            expect("127.0.0.10 logged in" not in s.log_text(),
                   "the viewer pinned to another certificate logged in")
            b = vnc.Viewer(s, vnc.tcp(port), name="bob", user="bob", password_file=bob,
                           ca=cert)
            b.wait_connected()
            expect('logged in as "bob" (X509Plain, view-only' in s.log_text(),
                   "bob's view-only account did not log in as view-only")
            b.close()
            c = vnc.Viewer(s, vnc.tcp(port), name="carol", user="carol",
                           password_file=carol, ca=cert)
            c.wait_connected()
            expect('logged in as "carol" (X509Plain;' in s.log_text(),
                   "carol, with a yescrypt hash, did not log in")
            c.close()

            # WebSocket viewers, over TLS, with accounts only: VeNCrypt
            # with Plain alone (TLS is outside it), as noVNC logs in.
            raw = socket.create_connection(vnc.tcp(port), timeout=harness.T(10))
            context = ssl.create_default_context(cafile=str(cert))
            try:
                tls = context.wrap_socket(raw, server_hostname=vnc.LOCALHOST)
                ws = test_vnc_tls.WS(tls, "127.0.0.1:%d" % port, "https://127.0.0.1:%d" % port)
                expect_eq(ws.read(12), b"RFB 003.008\n", "RFB version over wss")
                ws.write(b"RFB 003.008\n")
                n = ws.read(1)[0]
                expect_eq(list(ws.read(n)), [vnc.VENCRYPT],
                          "security types over wss with accounts only")
                ws.write(bytes([vnc.VENCRYPT]))
                expect_eq(ws.read(2), b"\x00\x02", "VeNCrypt version over wss")
                ws.write(b"\x00\x02")
                ack, n = ws.read(2)
                expect_eq((ack, list(struct.unpack(">%dI" % n, ws.read(4 * n)))),
                          (0, [256]), "VeNCrypt sub-types over wss: Plain alone")
                ws.write(struct.pack(">I", 256))
                ws.write(struct.pack(">II", 3, len(BOB_PW)) + b"bob" + BOB_PW.encode())
                expect_eq(ws.read(4), b"\x00\x00\x00\x00", "bob's SecurityResult over wss")
                ws.write(b"\x01")
                expect_eq(struct.unpack(">HH", ws.read(4)), (800, 600), "ServerInit over wss")
            finally:
                raw.close()
            expect('logged in as "bob" over WebSocket (Plain, view-only)' in s.log_text(),
                   "bob's wss login is not logged as view-only")

            expect(v.alive(), "alice's viewer was disconnected")
            for secret in (ALICE_PW, WRONG_PW, BOB_PW, CAROL_PW):
                expect(secret not in s.log_text(), "a password is in oriel's log")
                for c in s.clients:
                    expect(secret not in c.log(), "a password is in %s's log" % c.name)
            v.close()

        # The next start finds the certificate and keeps it.
        port = vnc.free_port()
        pwfile = vnc.write_password_file_in(d, [VNC_PW])
        with Session(outputs=["640x480"],
                     args=vnc.vnc_args(port, "--vnc-users", users,
                                       "--vnc-password-file", pwfile),
                     env={"XDG_STATE_HOME": str(state)}) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            again, fingerprint2, made = vnc.certificate(s)
            expect(not made and again == cert,
                   "the second start did not use the certificate it made: %s %s"
                   % (again, made))
            expect_eq(fingerprint2, fingerprint, "fingerprint on the second start")
            img = vnc.snapshot(s, vnc.tcp(port), user="alice", password_file=alice,
                               ca=cert, security="vencrypt")
            expect_eq((img.width, img.height), (640, 480), "snapshot size")

            # wss with the same certificate, trusted alone.
            raw = socket.create_connection(vnc.tcp(port), timeout=harness.T(10))
            context = ssl.create_default_context(cafile=str(cert))
            tls = context.wrap_socket(raw, server_hostname=vnc.LOCALHOST)
            ws = test_vnc_tls.WS(tls, "127.0.0.1:%d" % port, "https://127.0.0.1:%d" % port)
            expect_eq(ws.read(12), b"RFB 003.008\n", "RFB version over wss")
            ws.write(b"RFB 003.008\n")
            n = ws.read(1)[0]
            expect_eq(list(ws.read(n)), [vnc.VENCRYPT, 2],
                      "security types over wss with a password file")
            tls.close()

        # A certificate of one's own (--vnc-tls-cert/--vnc-tls-key) serves
        # VeNCrypt instead of the one oriel made.
        port = vnc.free_port()
        key = other.parent / "other-key.pem"
        with Session(outputs=["640x480"],
                     args=vnc.vnc_args(port, "--vnc-users", users, "--vnc-tls-cert", other,
                                       "--vnc-tls-key", key),
                     env={"XDG_STATE_HOME": str(state)}) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            given, fingerprint3, made = vnc.certificate(s)
            expect(not made and given.resolve() == other.resolve(),
                   "oriel does not use the certificate it was given: %s" % given)
            expect_eq(fingerprint3, vnc.pem_fingerprint(other), "the given certificate's "
                      "fingerprint")
            img = vnc.snapshot(s, vnc.tcp(port), user="alice", password_file=alice,
                               ca=other)
            expect_eq((img.width, img.height), (640, 480), "snapshot with the given "
                      "certificate")
            old = vnc.Viewer(s, vnc.tcp(port), name="pinned-to-made", user="alice",
                             password_file=alice, ca=cert)
            expect_eq((old.wait_exit_line(), old.proc.returncode), ("tls-failed", 4),
                      "a viewer pinned to the certificate oriel made, against the given one")


if __name__ == "__main__":
    harness.run(main)
