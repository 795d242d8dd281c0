#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""TigerVNC's viewer (xtigervncviewer 1.12) logs in with VeNCrypt.

TigerVNC's viewer runs in an Xvfb of the test's own, pinned to oriel's
generated certificate with -X509CA.  oriel serves accounts (--vnc-users),
a VncAuth password file and the anonymous sub-types (--vnc-anonymous-tls),
with an 800x600 output holding a colour window and an xterm whose shell
reads one line into a file.

- `-SecurityTypes X509Plain` with the account (VNC_USERNAME and
  VNC_PASSWORD): oriel logs alice in with X509Plain; the viewer's window
  in the Xvfb (read with xwd) shows the colour window; a click into the
  xterm through the viewer's window and text typed with xdotool into the
  Xvfb reach the xterm: the file holds exactly the typed line;
- `-SecurityTypes X509Vnc` with `-PasswordFile` (made by `vncpasswd -f`)
  and `-SecurityTypes TLSPlain`: both log in, and show the colour window;
- a wrong password with X509Plain is refused (oriel logs the failed login)
  and the viewer shows nothing of the session;
- a viewer pinned to another certificate (-X509CA) never sends its
  account: oriel logs no login and no failed login for it, and closes the
  connection at the handshake deadline.
"""
import os
import shlex
import subprocess
import tempfile
from pathlib import Path

import harness
import vnc
from harness import NotYet, Session, TestFailure, expect, expect_eq, tool

COLOUR = (0xe0, 0x70, 0x10)
WIN = (240, 160)
WIN_POS = (500, 380)
ALICE_PW = "tiger-Alice-5521"
VNC_PW = "tgr8pass"
TYPED = "secret typed 42"
# TigerVNC picks its encodings itself (Tight, perhaps with JPEG): a solid
# window arrives as a solid fill, but allow a little.
TOLERANCE = 3
# The handshake deadline, longer on slow machines (ORIEL_TEST_TIMEOUT_SCALE).
DEADLINE = max(6, int(round(harness.T(6))))


def main():
    viewer_exe = tool("xtigervncviewer")
    tool("Xvfb")
    tool("xwd")
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-tigervnc-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("alice", ALICE_PW)])
        pwfile = d / "vnc-passwords"
        pwfile.write_text(VNC_PW + "\n")
        pwfile.chmod(0o600)
        # TigerVNC's own password file (obfuscated, as vncpasswd writes it).
        tiger_pw = d / "tiger-passwd"
        res = subprocess.run([tool("vncpasswd"), "-f"], input=(VNC_PW + "\n").encode(),
                             capture_output=True)
        expect(res.returncode == 0 and len(res.stdout) == 8,
               "vncpasswd -f failed: %r" % res.stderr)
        tiger_pw.write_bytes(res.stdout)
        tiger_pw.chmod(0o600)
        other = vnc.other_certificate(d)

        port = vnc.free_port()
        args = vnc.vnc_args(port, "--vnc-users", users, "--vnc-password-file", pwfile,
                            "--vnc-anonymous-tls", "--vnc-handshake-timeout", DEADLINE)
        with Session(outputs=["800x600"], args=args) as s:
            out = s.tmp / "typed.txt"
            script = 'read l; printf "%%s\\n" "$l" > %s.tmp && mv %s.tmp %s; exec sleep 1000' % (
                shlex.quote(str(out)), shlex.quote(str(out)), shlex.quote(str(out)))
            s.spawn_x([tool("xterm"), "-geometry", "50x8+40+40", "-title", "typing target",
                       "-e", "sh", "-c", script])
            xw = s.wait_window(app_id="XTerm", kind="x11",
                               where=lambda w: w["width"] > 0 and w["height"] > 0)
            s.colour_window_at(COLOUR, WIN, WIN_POS, "orange", "org.oriel.test.orange")
            vnc.wait_listening(s, vnc.tcp(port))
            cert, _fp, _made = vnc.certificate(s)
            s.park_pointer()
            x = vnc.Xvfb(s, size=(1024, 768))

            def tiger(name, security, extra=(), env=None):
                home = s.tmp / ("home-" + name)
                home.mkdir()
                argv = [viewer_exe, "-SecurityTypes", security] + list(extra) + [
                    "127.0.0.1::%d" % port]
                full_env = {"DISPLAY": x.display, "WAYLAND_DISPLAY": None,
                            "HOME": str(home), "VNC_USERNAME": None, "VNC_PASSWORD": None}
                full_env.update(env or {})
                return s.spawn(argv, name="tigervnc-" + name, env=full_env)

            def logins():
                return s.log_text().count(" logged in as ") + s.log_text().count(
                    " connected (")

            def shows_colour(viewer, what):
                def check():
                    if not viewer.alive():
                        raise TestFailure("%s exited (%s):\n%s" % (
                            viewer.name, viewer.proc.returncode, viewer.log()[-3000:]))
                    img = x.screenshot()
                    n = img.count_colour((0, 0, img.width, img.height), COLOUR, TOLERANCE)
                    if n < WIN[0] * WIN[1]:
                        raise NotYet("%d pixels of #%s in the Xvfb; it shows %s" % (
                            n, harness.colour_hex(COLOUR),
                            img.describe((0, 0, img.width, img.height))))
                    return img
                return s.wait_for(check, 30, what)

            def log_has(text, what):
                def found():
                    if text not in s.log_text():
                        raise NotYet("not in oriel's log yet")
                    return True
                s.wait_for(found, 30, what)

            def stop(viewer):
                viewer.kill()
                viewer.wait(10)

                def gone():
                    img = x.screenshot()
                    if img.count_colour((0, 0, img.width, img.height), COLOUR, TOLERANCE):
                        raise NotYet("the Xvfb still shows the session")
                    return True
                s.wait_for(gone, what="%s's window to go away" % viewer.name)

            # X509Plain, pinned; its window shows the session, and typing
            # through it reaches xterm.
            t = tiger("x509plain", "X509Plain", ["-X509CA", str(cert)],
                      {"VNC_USERNAME": "alice", "VNC_PASSWORD": ALICE_PW})
            log_has('logged in as "alice" (X509Plain', "oriel to log alice in with X509Plain")
            img = shows_colour(t, "TigerVNC's window to show the colour window")
            # Where the viewer's window shows the session's (0, 0): the
            # colour window's top-left corner, found in the Xvfb, less its
            # position in the session.
            found = None
            for (px, py), rgb in img.pixels((0, 0, img.width, img.height)):
                if all(abs(rgb[c] - COLOUR[c]) <= TOLERANCE for c in range(3)):
                    found = (px, py)
                    break
            ox, oy = found[0] - WIN_POS[0], found[1] - WIN_POS[1]
            expect(ox >= 0 and oy >= 0, "the colour window is at %r in the Xvfb" % (found,))
            x.run(tool("xdotool"), "mousemove", ox + xw["x"] + xw["width"] // 2,
                  oy + xw["y"] + xw["height"] // 2, "click", "1")
            s.wait_window(id=xw["id"], where=lambda w: w["focused"],
                          what="xterm focused by a click through TigerVNC's window")
            wid = s.wait_x_window("XTerm")

            s.wait_x_focus(wid)
            # No window manager in the Xvfb: give the viewer's window the
            # keyboard focus, as a click would under one.
            res = x.run(tool("xdotool"), "search", "--onlyvisible", "--name", "TigerVNC")
            expect(res.stdout.split(), "no TigerVNC window in the Xvfb")
            x.run(tool("xdotool"), "windowfocus", "--sync", res.stdout.split()[0])
            x.run(tool("xdotool"), "type", "--delay", "30", TYPED)
            x.run(tool("xdotool"), "key", "Return")

            def written():
                if not out.exists():
                    raise NotYet("%s not written yet" % out)
                return out.read_text()
            expect_eq(s.wait_for(written, what="xterm to read the line typed through "
                                 "TigerVNC"), TYPED + "\n", "the line xterm read")
            stop(t)

            # X509Vnc with vncpasswd's file, and anonymous TLSPlain.
            t = tiger("x509vnc", "X509Vnc", ["-X509CA", str(cert), "-PasswordFile",
                                            str(tiger_pw)])
            log_has("connected (X509Vnc", "oriel to let the X509Vnc viewer in")
            shows_colour(t, "the X509Vnc viewer's window to show the colour window")
            stop(t)
            t = tiger("tlsplain", "TLSPlain", [],
                      {"VNC_USERNAME": "alice", "VNC_PASSWORD": ALICE_PW})
            log_has('logged in as "alice" (TLSPlain', "oriel to log alice in with TLSPlain")
            shows_colour(t, "the TLSPlain viewer's window to show the colour window")
            stop(t)

            # A wrong password.
            before = logins()
            t = tiger("wrong", "X509Plain", ["-X509CA", str(cert)],
                      {"VNC_USERNAME": "alice", "VNC_PASSWORD": "not-" + ALICE_PW})
            log_has('failed login as "alice" from 127.0.0.1 (X509Plain, 1 in a row)',
                    "oriel to refuse the wrong password")
            img = x.screenshot()
            expect(img.count_colour((0, 0, img.width, img.height), COLOUR, TOLERANCE) == 0,
                   "the viewer with a wrong password shows the session")
            expect_eq(logins(), before, "logins after the wrong password")
            t.kill()
            t.wait(10)

            # Not pinned: another certificate.
            closes = s.log_text().count("no login within %d s" % DEADLINE)
            failures = s.log_text().count("failed login")
            t = tiger("unpinned", "X509Plain", ["-X509CA", str(other)],
                      {"VNC_USERNAME": "alice", "VNC_PASSWORD": ALICE_PW})

            def closed():
                if s.log_text().count("no login within %d s" % DEADLINE) <= closes:
                    raise NotYet("the unpinned viewer's connection is still open")
                return True
            s.wait_for(closed, 30 + DEADLINE, "oriel to close the unpinned viewer's connection at "
                       "the handshake deadline")
            expect_eq((logins(), s.log_text().count("failed login")), (before, failures),
                      "logins and failed logins after the unpinned viewer")
            img = x.screenshot()
            expect(img.count_colour((0, 0, img.width, img.height), COLOUR, TOLERANCE) == 0,
                   "the unpinned viewer shows the session")
            t.kill()
            t.wait(10)
            for secret in (ALICE_PW, VNC_PW):
                expect(secret not in s.log_text(), "a password is in oriel's log")


if __name__ == "__main__":
    harness.run(main)
