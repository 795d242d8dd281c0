#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""With a password file, VeNCrypt is the first security type, on loopback too.

oriel serves a VncAuth password file on loopback: it offers VeNCrypt
(X509Vnc inside) and VncAuth in the clear, VeNCrypt first. TigerVNC's
viewer, in an Xvfb, with its default security settings (no
-SecurityTypes), the password from a file made by `vncpasswd -f`
(-passwd) and oriel's certificate pinned with -X509CA (the file `orielctl
vnc fingerprint` names; without it TigerVNC would ask about the unknown
certificate), takes the first type it knows: oriel logs the connection
with X509Vnc, TigerVNC's log shows its completed TLS handshake, and its window shows
the session's colour window. The test viewer, asking for VncAuth,
still gets it.
"""
import subprocess
import tempfile
from pathlib import Path

import harness
import vnc
from harness import NotYet, Session, TestFailure, expect, expect_eq, tool

COLOUR = (0x30, 0x60, 0xd0)
WIN, WIN_POS = (200, 150), (300, 220)
VNC_PW = "frst8pwd"
TOLERANCE = 3


def main():
    viewer_exe = tool("xtigervncviewer")
    tool("Xvfb")
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-first-") as d:
        d = Path(d)
        pwfile = d / "vnc-passwords"
        pwfile.write_text(VNC_PW + "\n")
        pwfile.chmod(0o600)
        res = subprocess.run([tool("vncpasswd"), "-f"], input=(VNC_PW + "\n").encode(),
                             capture_output=True)
        expect(res.returncode == 0 and len(res.stdout) == 8,
               "vncpasswd -f failed: %r" % res.stderr)
        tiger_pw = d / "tiger-passwd"
        tiger_pw.write_bytes(res.stdout)
        tiger_pw.chmod(0o600)

        port = vnc.free_port()
        args = vnc.vnc_args(port, "--vnc-password-file", pwfile)
        with Session(outputs=["800x600"], args=args) as s:
            s.colour_window_at(COLOUR, WIN, WIN_POS, "blue", "org.oriel.test.blue")
            vnc.wait_listening(s, vnc.tcp(port))
            expect_eq(vnc.security_types(vnc.tcp(port)), [vnc.VENCRYPT, 2],
                      "security types on loopback with a password file")
            cert, _fp, _made = vnc.certificate(s)
            s.park_pointer()
            x = vnc.Xvfb(s, size=(1024, 768))
            home = s.tmp / "home-tiger"
            home.mkdir()
            viewer = s.spawn([viewer_exe, "-passwd", str(tiger_pw), "-X509CA", str(cert),
                              "-Log", "*:stderr:100", "127.0.0.1::%d" % port],
                             name="tigervnc", env={"DISPLAY": x.display, "WAYLAND_DISPLAY": None,
                                                   "HOME": str(home)})

            def shows_colour():
                if not viewer.alive():
                    raise TestFailure("TigerVNC exited (%s):\n%s" % (
                        viewer.proc.returncode, viewer.log()[-3000:]))
                img = x.screenshot()
                n = img.count_colour((0, 0, img.width, img.height), COLOUR, TOLERANCE)
                if n < WIN[0] * WIN[1]:
                    raise NotYet("%d pixels of #%s in the Xvfb" % (n, harness.colour_hex(COLOUR)))
                return True
            s.wait_for(shows_colour, 30, "TigerVNC's window to show the colour window")
            expect("connected (X509Vnc" in s.log_text(),
                   "oriel did not log an X509Vnc connection:\n%s" % s.log_text()[-2000:])
            tiger_log = viewer.log()
            expect("TLS handshake completed" in tiger_log,
                   "TigerVNC's log shows no TLS handshake:\n%s" % tiger_log[-3000:])
            viewer.kill()
            viewer.wait(10)

            # A viewer that wants VncAuth in the clear asks for it, and gets it.
            v = vnc.snapshot(s, vnc.tcp(port), password_file=pwfile, security="vncauth")
            expect(v.count_colour((WIN_POS[0], WIN_POS[1], WIN[0], WIN[1]), COLOUR, 0) ==
                   WIN[0] * WIN[1], "the VncAuth snapshot does not show the colour window")


if __name__ == "__main__":
    harness.run(main)
