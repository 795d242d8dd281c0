#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Keysyms missing from the keymap arrive through a spare keycode.

Under a `us` layout no key yields `eacute` or `EuroSign`.  oriel binds such
a keysym to a spare keycode of the virtual keyboard's keymap (keys the
keymap names but gives no symbols), so Xwayland gets the new keymap before
the key, presses and releases it, and puts the keymap back a moment later.

A viewer sends `keysym eacute down/up` and `keysym EuroSign down/up`
between plain letters into `xterm -e sh -c 'read l; echo "$l" > F'`; F
must hold exactly those characters.  Then, once the spare bindings are
gone, a second xterm gets plain letters and the same missing keysym again.
"""
import shlex
import tempfile
import time
from pathlib import Path

import harness
import vnc
from harness import Session, T, tool


def xterm_reading(s, out, title, geometry):
    script = 'read l; printf "%%s\\n" "$l" > %s.tmp && mv %s.tmp %s' % (
        shlex.quote(str(out)), shlex.quote(str(out)), shlex.quote(str(out)))
    xterm = s.spawn_x([tool("xterm"), "-u8", "-geometry", geometry, "-title", title,
                       "-e", "sh", "-c", script])
    win = s.wait_window(title=title, kind="x11",
                        where=lambda w: w["width"] > 0 and w["height"] > 0)
    return xterm, win


def focus(s, v, win):
    v.click(win["x"] + win["width"] // 2, win["y"] + win["height"] // 2)
    s.wait_window(id=win["id"], where=lambda w: w["focused"],
                  what="xterm %s to be focused" % win["id"])
    time.sleep(T(0.3))


def main():
    port = vnc.free_port()
    with tempfile.TemporaryDirectory(prefix="oriel-vnc2-spare-") as d:
        config = Path(d) / "oriel.ini"
        config.write_text("[keyboard]\nlayout = us\n")
        with Session(outputs=["1024x768"], config=config,
                     args=vnc.vnc_args(port)) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            out1 = s.tmp / "typed1.txt"
            xterm1, win1 = xterm_reading(s, out1, "spare one", "60x8+40+40")
            v = vnc.Viewer(s, vnc.tcp(port))
            v.wait_connected()
            focus(s, v, win1)
            v.type("a")
            v.keysym("eacute", "down")
            v.keysym("eacute", "up")
            v.keysym("EuroSign", "down")
            v.keysym("EuroSign", "up")
            v.type("b")
            v.keysym("Return")
            got = s.wait_written(xterm1, out1)
            harness.expect_eq(got, "a\u00e9\u20acb\n",
                              "eacute and EuroSign typed under a us layout")

            # The bindings go away after a second; plain keys still work,
            # and a missing keysym binds again.
            time.sleep(T(2.0))
            out2 = s.tmp / "typed2.txt"
            xterm2, win2 = xterm_reading(s, out2, "spare two", "60x8+40+300")
            focus(s, v, win2)
            v.type("xy")
            v.keysym("EuroSign")
            v.keysym("Return")
            got = s.wait_written(xterm2, out2)
            harness.expect_eq(got, "xy\u20ac\n",
                              "letters and EuroSign after the keymap was restored")

if __name__ == "__main__":
    harness.run(main)
