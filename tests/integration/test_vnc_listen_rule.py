#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The listening rule: beyond loopback, TLS and accounts, or an explicit
--vnc-insecure.

- `--vnc 0.0.0.0:PORT` alone, with only a password file, or with only
  --vnc-insecure: oriel exits with status 1 and the error that names the
  options to add, and never accepts a connection;
- with --vnc-password-file and --vnc-insecure it starts, logs an ERROR
  about VncAuth in the clear at start, and a loopback viewer logs in with
  VncAuth;
- in a network namespace of the test's own (unshare -n; its loopback
  device also carries 192.0.2.1, a documentation address that leaves
  nothing), a viewer reaching that listener at 192.0.2.1 is beyond
  loopback: it is offered VeNCrypt before VncAuth, it logs in with
  VncAuth, and oriel logs an ERROR for that connection; with --vnc-users
  instead, such a viewer is offered VeNCrypt alone and logs in with
  X509Plain; with accounts and a password file (no --vnc-insecure) it is
  offered VeNCrypt alone, with X509Plain and X509Vnc inside, its plain
  WebSocket is refused and its wss, trusting only oriel's certificate for
  192.0.2.1, is offered VeNCrypt (Plain, for the accounts) and VncAuth.
"""
import os
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness
import test_vnc_tls
import vnc
from harness import Session, TestFailure, expect, expect_eq, tool

OUTSIDE = "192.0.2.1"
PASSWORD = "insecur1"


def refused(args, what):
    port = vnc.free_port()
    listen = "0.0.0.0:%d" % port
    with Session(outputs=["640x480"], args=["--vnc", listen] + args,
                 wait_ready=False, check_exit=False) as s:
        accepted = False
        deadline = time.monotonic() + harness.T(20)
        while s.oriel.poll() is None and time.monotonic() < deadline:
            try:
                with socket.create_connection((vnc.LOCALHOST, port), timeout=0.2):
                    accepted = True
            except OSError:
                pass
            time.sleep(0.05)
        status = s.wait_exit(timeout=5)
        text = s.log_text()
        expect_eq(status, 1, "oriel's exit status for %s" % what)
        expect(not accepted, "oriel accepted a connection on %s (%s)" % (listen, what))
        want = "oriel: refusing to serve VNC on %s without accounts" % listen
        expect(want in text, "no %r for %s:\n%s" % (want, what, text[-2000:]))
        for option in ("--vnc-users FILE", "--vnc-pam", "--vnc-insecure"):
            expect(option in text, "the error for %s does not name %s:\n%s"
                   % (what, option, text[-2000:]))


def insecure_starts(d):
    pwfile = vnc.write_password_file_in(d, [PASSWORD])
    secret = vnc.write_secret_in(d, "vncauth", PASSWORD)
    port = vnc.free_port()
    with Session(outputs=["640x480"],
                 args=["--vnc", "0.0.0.0:%d" % port, "--vnc-password-file", str(pwfile),
                       "--vnc-insecure"]) as s:
        vnc.wait_listening(s, vnc.tcp(port))
        warning = [l for l in s.log_text().splitlines()
                   if "--vnc-insecure: viewers beyond loopback may log in with VncAuth "
                      "in the clear" in l]
        expect(warning, "no warning about --vnc-insecure at start:\n%s"
               % s.log_text()[-2000:])
        expect("[ERROR]" in warning[0], "the --vnc-insecure warning is not an ERROR: %s"
               % warning[0])
        img = vnc.snapshot(s, vnc.tcp(port), password_file=secret)
        expect_eq((img.width, img.height), (640, 480), "VncAuth viewer's framebuffer")


def in_namespace():
    """Runs inside `unshare -n`: only this test's loopback device exists."""
    subprocess.run([tool("ip"), "link", "set", "lo", "up"], check=True)
    subprocess.run([tool("ip"), "addr", "add", OUTSIDE + "/32", "dev", "lo"], check=True)
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-rule-") as d:
        d = Path(d)
        pwfile = vnc.write_password_file_in(d, [PASSWORD])
        secret = vnc.write_secret_in(d, "vncauth", PASSWORD)
        port = vnc.free_port()
        with Session(outputs=["640x480"],
                     args=["--vnc", "0.0.0.0:%d" % port, "--vnc-password-file", str(pwfile),
                           "--vnc-insecure"]) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            expect_eq(vnc.security_types((vnc.LOCALHOST, port)), [vnc.VENCRYPT, 2],
                      "security types on loopback (VeNCrypt first, there too)")
            expect_eq(vnc.security_types((OUTSIDE, port)), [vnc.VENCRYPT, 2],
                      "security types beyond loopback (VeNCrypt first)")
            img = vnc.snapshot(s, (OUTSIDE, port), password_file=secret,
                               security="vncauth")
            expect_eq((img.width, img.height), (640, 480), "framebuffer from %s" % OUTSIDE)
            lines = [l for l in s.log_text().splitlines()
                     if "%s logs in with VncAuth in the clear (--vnc-insecure)" % OUTSIDE in l]
            expect(lines and "[ERROR]" in lines[0],
                   "no ERROR for the VncAuth login from %s:\n%s" % (
                       OUTSIDE, s.log_text()[-2000:]))
            before = len(lines)
            vnc.snapshot(s, vnc.tcp(port), password_file=secret, security="vncauth")
            expect_eq(s.log_text().count("logs in with VncAuth in the clear"), before,
                      "warnings after a loopback login (none is due)")

        users = vnc.write_users_file(d, [("alice", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["640x480"],
                     args=["--vnc", "0.0.0.0:%d" % port, "--vnc-users", str(users)]) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            cert, _fp, _made = vnc.certificate(s)
            expect_eq(vnc.security_types((OUTSIDE, port)), [vnc.VENCRYPT],
                      "security types beyond loopback with accounts")
            sock, subtypes = vnc.vencrypt_start((OUTSIDE, port))
            sock.close()
            expect_eq(subtypes, [vnc.X509_PLAIN], "VeNCrypt sub-types beyond loopback")
            img = vnc.snapshot(s, (OUTSIDE, port), user="alice", password_file=secret,
                               ca=cert)
            expect_eq((img.width, img.height), (640, 480), "X509Plain from %s" % OUTSIDE)
            expect('viewer %s logged in as "alice" (X509Plain' % OUTSIDE in s.log_text(),
                   "oriel did not log the X509Plain login from %s" % OUTSIDE)

        # Accounts and a password file: VncAuth only inside TLS beyond
        # loopback, and WebSocket viewers from there only over wss.
        port = vnc.free_port()
        with Session(outputs=["640x480"],
                     args=["--vnc", "0.0.0.0:%d" % port, "--vnc-users", str(users),
                           "--vnc-password-file", str(pwfile)]) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            cert, _fp, _made = vnc.certificate(s)
            expect_eq(vnc.security_types((OUTSIDE, port)), [vnc.VENCRYPT],
                      "security types beyond loopback with accounts and passwords")
            expect_eq(vnc.security_types((vnc.LOCALHOST, port)), [vnc.VENCRYPT, 2],
                      "security types on loopback with accounts and passwords")
            sock, subtypes = vnc.vencrypt_start((OUTSIDE, port))
            sock.close()
            expect_eq(subtypes, [vnc.X509_PLAIN, vnc.X509_VNC],
                      "VeNCrypt sub-types beyond loopback with accounts and passwords")

            plain = socket.create_connection((OUTSIDE, port), timeout=harness.T(10))
            try:
                test_vnc_tls.WS(plain, "%s:%d" % (OUTSIDE, port),
                                "http://%s:%d" % (OUTSIDE, port))
                raise TestFailure("a plain ws viewer beyond loopback got a WebSocket")
            except (OSError, TestFailure) as e:
                if "got a WebSocket" in str(e):
                    raise
            finally:
                plain.close()
            expect("WebSocket viewers beyond loopback need wss (TLS)" in s.log_text(),
                   "oriel does not say why it refused plain ws from %s" % OUTSIDE)

            # wss from there, trusting only oriel's certificate, which
            # names this address too.
            raw = socket.create_connection((OUTSIDE, port), timeout=harness.T(10))
            context = ssl.create_default_context(cafile=str(cert))
            tls = context.wrap_socket(raw, server_hostname=OUTSIDE)
            ws = test_vnc_tls.WS(tls, "%s:%d" % (OUTSIDE, port),
                                 "https://%s:%d" % (OUTSIDE, port))
            expect_eq(ws.read(12), b"RFB 003.008\n", "RFB version over wss")
            ws.write(b"RFB 003.008\n")
            n = ws.read(1)[0]
            expect_eq(list(ws.read(n)), [vnc.VENCRYPT, 2],
                      "security types over wss from %s" % OUTSIDE)
            tls.close()


def main():
    if "--in-namespace" in sys.argv:
        return in_namespace()
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-rule-") as d:
        d = Path(d)
        pwfile = vnc.write_password_file_in(d, [PASSWORD])
        refused([], "no account option")
        refused(["--vnc-password-file", str(pwfile)], "a password file alone")
        refused(["--vnc-insecure"], "--vnc-insecure without a password file")
        insecure_starts(d)
    res = subprocess.run([tool("unshare"), "--net", sys.executable, sys.argv[0],
                          "--in-namespace"], env=os.environ)
    if res.returncode != 0:
        raise TestFailure("the part in a network namespace failed (exit %d)"
                          % res.returncode)


if __name__ == "__main__":
    harness.run(main)
