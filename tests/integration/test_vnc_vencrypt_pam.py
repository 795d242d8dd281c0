#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""VeNCrypt X509Plain against the system's accounts, through PAM.

The test makes two system users with unique names (useradd, chpasswd) and
a PAM service file of its own in /etc/pam.d (the repository's
data/pam.d/oriel when it exists, else Debian's common-auth, common-account
and common-session-noninteractive), and runs oriel with
`--vnc-pam=SERVICE --vnc-allow-user FIRST`:
- the first user logs in with the libvncclient viewer (X509Plain, pinned
  to oriel's certificate) and sees the colour window;
- the second user, with the right password but not allowed, is refused;
- the first user with a wrong password is refused;
- over wss, as noVNC logs in (VeNCrypt Plain, Plain alone offered), the
  first user gets in and the second, not allowed, is refused;
- once the service file says `auth requisite pam_deny.so`, the first user
  with the right password is refused too: oriel asks that service.
Users and the service file are removed at the end, whatever happens.
"""
import os
import secrets
import socket
import ssl
import struct
import subprocess
import tempfile
from pathlib import Path

import harness
import test_vnc_tls
import vnc
from harness import REPO, Session, Skip, expect, expect_eq, tool

COLOUR = (0x90, 0x30, 0xc0)
DEBIAN_PAM = "@include common-auth\n@include common-account\n" \
             "@include common-session-noninteractive\n"


def pam_service_text():
    packaged = REPO / "data" / "pam.d" / "oriel"
    if packaged.exists():
        return packaged.read_text()
    return DEBIAN_PAM


def run(argv, stdin=None):
    res = subprocess.run(argv, input=stdin, capture_output=True, text=True)
    expect(res.returncode == 0, "%s failed (%d): %s" % (" ".join(argv), res.returncode,
                                                         res.stderr.strip()))


def wss_plain(port, cert, user, password, bind):
    """The SecurityResult of a VeNCrypt Plain login inside wss (0: in)."""
    raw = socket.create_connection(vnc.tcp(port), timeout=harness.T(10),
                                   source_address=(bind, 0))
    try:
        context = ssl.create_default_context(cafile=str(cert))
        tls = context.wrap_socket(raw, server_hostname=vnc.LOCALHOST)
        ws = test_vnc_tls.WS(tls, "127.0.0.1:%d" % port, "https://127.0.0.1:%d" % port)
        ws.read(12)
        ws.write(b"RFB 003.008\n")
        n = ws.read(1)[0]
        expect_eq(list(ws.read(n)), [vnc.VENCRYPT], "security types over wss with PAM")
        ws.write(bytes([vnc.VENCRYPT]))
        ws.read(2)
        ws.write(b"\x00\x02")
        _ack, n = ws.read(2)
        expect_eq(list(struct.unpack(">%dI" % n, ws.read(4 * n))), [256],
                  "VeNCrypt sub-types over wss with PAM")
        ws.write(struct.pack(">I", 256))
        ws.write(struct.pack(">II", len(user), len(password)) + user.encode() +
                 password.encode())
        (result,) = struct.unpack(">I", ws.read(4))
        return result
    finally:
        raw.close()


def main():
    if os.geteuid() != 0:
        raise Skip("making system users needs root")
    for include in ("common-auth", "common-account", "common-session-noninteractive"):
        expect(Path("/etc/pam.d", include).exists(), "/etc/pam.d/%s is missing" % include)
    tag = secrets.token_hex(4)
    allowed, other = "oriel-t-%s-a" % tag, "oriel-t-%s-b" % tag
    service = "oriel-t-%s" % tag
    service_file = Path("/etc/pam.d", service)
    made = []
    try:
        service_file.write_text(pam_service_text())
        passwords = {}
        for name in (allowed, other):
            run([tool("useradd"), "--no-create-home", "--shell", "/usr/sbin/nologin", name])
            made.append(name)
            passwords[name] = "pam-%s-%s" % (name[-1], secrets.token_hex(6))
        run([tool("chpasswd")], stdin="".join("%s:%s\n" % kv for kv in passwords.items()))

        with tempfile.TemporaryDirectory(prefix="oriel-vnc-pam-") as d:
            d = Path(d)
            right = vnc.write_secret_in(d, "right", passwords[allowed])
            other_right = vnc.write_secret_in(d, "other", passwords[other])
            wrong = vnc.write_secret_in(d, "wrong", "not-" + passwords[allowed])
            port = vnc.free_port()
            args = vnc.vnc_args(port, "--vnc-pam=" + service, "--vnc-allow-user", allowed)
            with Session(outputs=["640x480"], args=args) as s:
                s.colour_window_at(COLOUR, (200, 120), (100, 100), "purple",
                                   "org.oriel.test.purple")
                vnc.wait_listening(s, vnc.tcp(port))
                cert, _fp, _made = vnc.certificate(s)
                expect("service %s" % service in s.log_text(),
                       "oriel does not say it checks accounts through PAM service %s"
                       % service)

                v = vnc.Viewer(s, vnc.tcp(port), name="allowed", user=allowed,
                               password_file=right, ca=cert)
                expect_eq(v.wait_connected(), (640, 480), "framebuffer size")
                expect("security 19 262" in v.lines, "not X509Plain: %r" % v.lines[:3])
                v.wait_colour((100, 100, 200, 120), COLOUR,
                              what="the colour window in the PAM user's framebuffer")
                expect('logged in as "%s" (X509Plain' % allowed in s.log_text(),
                       "oriel did not log the PAM user's login")

                def refused(name, user, secret, bind):
                    r = vnc.Viewer(s, vnc.tcp(port), name=name, user=user,
                                   password_file=secret, ca=cert, bind=bind)
                    expect_eq((r.wait_exit_line(timeout=30), r.proc.returncode),
                              ("auth-failed", 2), "%s: last line and exit status" % name)
                    expect('failed login as "%s" from %s' % (user, bind) in s.log_text(),
                           "oriel did not log the refusal of %s" % name)

                # A browser's way in: VeNCrypt Plain inside wss, as noVNC does.
                expect_eq(wss_plain(port, cert, allowed, passwords[allowed], "127.0.0.24"),
                          0, "the PAM user's SecurityResult over wss")
                # Logged just after the SecurityResult went out.
                s.wait_for(lambda: 'logged in as "%s" over WebSocket (Plain)' % allowed
                           in s.log_text(), what="oriel logging the PAM user's login over wss")
                expect_eq(wss_plain(port, cert, other, passwords[other], "127.0.0.25"), 1,
                          "the user not allowed, over wss: refused as a wrong password is")

                refused("not-allowed", other, other_right, "127.0.0.21")
                refused("wrong-password", allowed, wrong, "127.0.0.22")
                service_file.write_text("auth requisite pam_deny.so\n"
                                        "account requisite pam_deny.so\n")
                refused("service-denies", allowed, right, "127.0.0.23")
                expect(v.alive(), "the PAM user's viewer was disconnected")
                for secret in passwords.values():
                    expect(secret not in s.log_text(), "a password is in oriel's log")
                v.close()
    finally:
        for name in made:
            subprocess.run(["userdel", name], capture_output=True)
        try:
            service_file.unlink()
        except FileNotFoundError:
            pass


if __name__ == "__main__":
    harness.run(main)
