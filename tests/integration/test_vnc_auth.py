#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""VncAuth: passwords, view-only viewers, and no open port without one.

oriel reads a password file with a full-access and a view-only secret.
- the full-access password gets in, and its typing reaches xterm;
- the view-only password gets in and sees the screen, but its clicks and
  keys are ignored: its click on a colour window neither focuses nor
  raises it, and the line it types never reaches xterm (the full viewer's
  line, typed afterwards, is the first one xterm reads);
- a wrong password is refused, and security type None is not offered
  (last, since failures are throttled per address);
- `--vnc 0.0.0.0:PORT` without a password file makes oriel exit at
  startup with an error that says why, without ever accepting a connection.
"""
import shlex
import socket
import tempfile
import time
from pathlib import Path

import harness
import vnc
from harness import NotYet, Session, expect, expect_eq, tool

FULL = "full-Secret1"
VIEW = "view-Secret2"


def main():
    port = vnc.free_port()
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-auth-") as d:
        pwfile = Path(d) / "passwords"
        pwfile.write_text("%s\nview-only:%s\n" % (FULL, VIEW))
        pwfile.chmod(0o600)
        full_secret = Path(d) / "full"
        full_secret.write_text(FULL + "\n")
        view_secret = Path(d) / "view"
        view_secret.write_text(VIEW + "\n")
        wrong_secret = Path(d) / "wrong"
        wrong_secret.write_text("not-the-password\n")

        with Session(outputs=["1024x768"],
                     args=vnc.vnc_args(port, "--vnc-password-file", pwfile)) as s:
            out = s.tmp / "typed.txt"
            script = 'read l; printf "%%s\\n" "$l" > %s.tmp && mv %s.tmp %s; exec sleep 1000' % (
                shlex.quote(str(out)), shlex.quote(str(out)), shlex.quote(str(out)))
            s.spawn_x([tool("xterm"), "-geometry", "60x8+40+40", "-title", "vnc auth",
                       "-e", "sh", "-c", script])
            xw = s.wait_window(app_id="XTerm", kind="x11",
                               where=lambda w: w["width"] > 0 and w["height"] > 0)
            c = s.spawn_colour((0x30, 0x50, 0xe0), size=(200, 150), title="target",
                               app_id="org.oriel.test.target")
            c.wait_ready(size=(200, 150))
            cw = s.wait_window(app_id="org.oriel.test.target")
            s.orielctl("move", cw["id"], 600, 400)
            cw = s.wait_window(id=cw["id"], where=lambda w: (w["x"], w["y"]) == (600, 400))
            vnc.wait_listening(s, vnc.tcp(port))

            full = vnc.Viewer(s, vnc.tcp(port), name="full", password_file=full_secret)
            expect_eq(full.wait_connected(), (1024, 768), "full viewer's size")
            full.click(xw["x"] + xw["width"] // 2, xw["y"] + xw["height"] // 2)
            s.wait_window(id=xw["id"], where=lambda w: w["focused"],
                          what="xterm focused by the full viewer's click")
            wid = s.wait_x_window("XTerm")

            def x_focus():
                res = s.x_tool(tool("xdotool"), "getwindowfocus", check=False)
                if res.stdout.strip() != str(wid):
                    raise NotYet("X focus is %r" % res.stdout.strip())
                return True
            s.wait_for(x_focus, what="X input focus on xterm")

            view = vnc.Viewer(s, vnc.tcp(port), name="view", password_file=view_secret)
            view.wait_connected()
            view.wait_line("frame", what="the view-only viewer's first frame")
            view.click(cw["x"] + 20, cw["y"] + 20)
            view.type("ignored")
            view.keysym("Return")
            # The full viewer's keys go after the view-only viewer's input
            # (same server, sent later), so once xterm has read a line all
            # of that input has been handled: the line must be the full
            # viewer's, and the target window must still be unfocused.
            full.type("accepted")
            full.keysym("Return")

            def written():
                if not out.exists():
                    raise NotYet("%s not written yet" % out)
                return out.read_text()
            expect_eq(s.wait_for(written, what="xterm to read a line"), "accepted\n",
                      "the first line xterm read (the view-only viewer typed first)")
            wins = s.windows()
            target = s.window_by(id=cw["id"], windows=wins)
            expect(not target["focused"] and wins[-1]["id"] != cw["id"],
                   "the view-only viewer's click focused or raised a window: %s"
                   % harness.brief_windows(wins))
            expect(view.alive() and full.alive(), "a viewer was disconnected")

            v = vnc.Viewer(s, vnc.tcp(port), name="wrong", password_file=wrong_secret)
            last = v.wait_exit_line()
            expect_eq((last, v.proc.returncode), ("auth-failed", 2),
                      "wrong password: viewer's last line and exit status")
            # Without a password: the server must not offer security None.
            sock = vnc._connect(vnc.tcp(port), harness.T(10))
            try:
                vnc.recv_exactly(sock, 12)
                sock.sendall(b"RFB 003.008\n")
                (n,) = vnc.recv_exactly(sock, 1)
                types = list(vnc.recv_exactly(sock, n)) if n else []
            finally:
                sock.close()
            expect(types and 1 not in types,
                   "security types offered with a password file: %r" % types)
            expect(full.alive(), "the full viewer was disconnected by the failures")

    # Non-loopback without a password.
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=["--vnc", "0.0.0.0:%d" % port],
                 wait_ready=False, check_exit=False) as s:
        deadline = time.monotonic() + harness.T(20)
        accepted = False
        while s.oriel.poll() is None and time.monotonic() < deadline:
            try:
                with socket.create_connection((vnc.LOCALHOST, port), timeout=0.2):
                    accepted = True
            except OSError:
                pass
            time.sleep(0.05)
        status = s.wait_exit(timeout=5)
        expect(status != 0, "oriel started on 0.0.0.0 without a password (exit %s)"
               % status)
        expect(not accepted, "oriel accepted a connection on 0.0.0.0:%d before "
               "failing" % port)
        text = s.log_text()
        expect("password" in text.lower(),
               "oriel's error does not say a password is needed:\n%s" % text[-2000:])


if __name__ == "__main__":
    harness.run(main)
