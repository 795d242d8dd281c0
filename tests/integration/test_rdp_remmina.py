#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Remmina at 16 bits per pixel shows the session.

Remmina (its RDP plug-in, FreeRDP 2) connects from a .remmina profile
(colour depth 16, TLS, the certificate ignored; the user name and the
password put in with `remmina --update-profile`, which encrypts it), in
an Xvfb of its own. oriel logs the client at 16 bpp without RemoteFX, and
Remmina's window shows the session's red window: exactly its size, every
pixel within 12 of its red on each channel; when the window is moved in
the session, the red moves by as much in Remmina's window.
"""
import os
import subprocess
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, TestFailure, expect, tool

RED = (0xd8, 0x20, 0x30)
PASSWORD = "remmina-Pass-8080"
SIZE = (301, 203)
POS, MOVED = (243, 161), (517, 333)


def red_box(img):
    """The bounding box (x, y, w, h) of the red pixels in img, and their count."""
    xs, ys, n = [], [], 0
    for (px, py), rgb in img.pixels((0, 0, img.width, img.height)):
        if all(abs(rgb[c] - RED[c]) <= 12 for c in range(3)):
            xs.append(px)
            ys.append(py)
            n += 1
    if not n:
        return None, 0
    return (min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1), n


def main():
    remmina = tool("remmina")
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-remmina-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("rem", PASSWORD)])
        port = vnc.free_port()
        home = d / "home"
        home.mkdir()
        profile = d / "oriel.remmina"
        profile.write_text("\n".join([
            "[remmina]", "name=oriel", "protocol=RDP",
            "server=127.0.0.1:%d" % port, "colordepth=16", "security=tls",
            "cert_ignore=1", "scale=0", "viewmode=1", "disableautoreconnect=1",
            "disable_fastpath=0", "glyph-cache=0", "window_width=1100",
            "window_height=780", ""]))
        env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
               "XDG_DATA_HOME": str(home / ".local/share"),
               "XDG_CACHE_HOME": str(home / ".cache"), "WAYLAND_DISPLAY": None,
               "GDK_BACKEND": "x11"}
        with Session(outputs=["1024x768"], args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            _, win = s.colour_window_at(RED, SIZE, POS, "red", "org.oriel.test.red")
            rdp.wait_listening(s, port)
            s.park_pointer()
            xvfb = rdp.Xvfb(s)
            try:
                full_env = dict(env, DISPLAY=xvfb.display)
                tool_env = {k: v for k, v in dict(os.environ, **full_env).items()
                            if v is not None}
                r = subprocess.run([remmina, "--update-profile", str(profile),
                                    "--set-option", "username", "--set-option", "password"],
                                   input="rem\n%s\n" % PASSWORD, text=True, capture_output=True,
                                   env=tool_env, timeout=60)
                expect(r.returncode == 0, "remmina --update-profile: %s" % r.stderr[-2000:])
                text = profile.read_text()
                expect("username=rem" in text and PASSWORD not in text,
                       "the profile after --update-profile:\n%s" % text)
                viewer = s.spawn([remmina, "-c", str(profile)], name="remmina", env=full_env)
                try:
                    def shown(pos):
                        def check():
                            if not viewer.alive():
                                raise TestFailure("remmina exited (%s):\n%s" % (
                                    viewer.proc.returncode, viewer.log()[-3000:]))
                            img = xvfb.screen()
                            box, n = red_box(img)
                            if box is None or box[2:] != SIZE or n != SIZE[0] * SIZE[1]:
                                raise NotYet("the red in the Xvfb: %r, %d pixels" % (box, n))
                            return box
                        return s.wait_for(check, 40, "Remmina to show the red window at %r"
                                          % (pos,))
                    before = shown(POS)
                    expect("at 16 bpp, RemoteFX no" in s.log_text(),
                           "oriel did not log Remmina at 16 bpp")
                    s.orielctl("move", win["id"], *MOVED)
                    after = shown(MOVED)
                    expect((after[0] - before[0], after[1] - before[1]) ==
                           (MOVED[0] - POS[0], MOVED[1] - POS[1]),
                           "the red moved from %r to %r in Remmina's window" % (before, after))
                finally:
                    viewer.kill()
                    viewer.wait(10)
            finally:
                xvfb.close()


if __name__ == "__main__":
    harness.run(main)
