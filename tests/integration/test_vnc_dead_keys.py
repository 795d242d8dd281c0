#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Dead keys from a VNC viewer compose in X and Wayland apps, `de` and `us`.

A viewer with a German layout sends dead keysyms: `dead_acute` then `e`,
`dead_circumflex` then `o`, `dead_diaeresis` then `a`, `dead_grave` (with
Shift held, as on a de keyboard) then `a`.  Apps compose them with their
input method (xterm through Xlib's, weston-terminal through xkbcommon's
compose tables), so the composed character must arrive: é ô ä à.  Viewers
that compose themselves send `eacute` at once; that must keep working.

Under `de` the dead keysyms are on keys of the keymap; under `us` there is
no key for them, so oriel binds each to a spare keycode for a moment.

xterm runs `read l` and writes the line to a file; weston-terminal gets a
printf command writing the line to a file.  Each file must hold exactly
the expected line.
"""
import shlex
import tempfile
import time
from pathlib import Path

import harness
import vnc
from harness import NotYet, Session, tool

EXPECTED = "x\u00e9\u00f4\u00e4\u00e0\u00e9y"


def type_dead_keys(v):
    """x, é ô ä à through dead keys, é as one keysym, y."""
    v.type("x")
    v.keysym("dead_acute")
    v.type("e")
    v.keysym("dead_circumflex")
    v.type("o")
    v.keysym("dead_diaeresis")
    v.type("a")
    v.keysym("Shift_L", "down")
    v.keysym("dead_grave")
    v.keysym("Shift_L", "up")
    v.type("a")
    v.keysym("eacute")
    v.type("y")


def focus(s, v, win):
    v.click(win["x"] + win["width"] // 2, win["y"] + win["height"] // 2)
    s.wait_window(id=win["id"], where=lambda w: w["focused"],
                  what="window %s to be focused after the viewer's click" % win["id"])


def into_xterm(s, v, layout):
    out = s.tmp / ("xterm-%s.txt" % layout)
    script = 'read l; printf "%%s\\n" "$l" > %s.tmp && mv %s.tmp %s' % (
        shlex.quote(str(out)), shlex.quote(str(out)), shlex.quote(str(out)))
    title = "dead keys " + layout
    xterm = s.spawn_x([tool("xterm"), "-u8", "-geometry", "60x8+40+40",
                       "-title", title, "-e", "sh", "-c", script])
    win = s.wait_window(title=title, kind="x11",
                        where=lambda w: w["width"] > 0 and w["height"] > 0)
    focus(s, v, win)
    wid = s.wait_x_window("XTerm")

    def x_focus():
        res = s.x_tool(tool("xdotool"), "getwindowfocus", check=False)
        if res.stdout.strip() != str(wid):
            raise NotYet("X focus is %r, xterm is %d" % (res.stdout.strip(), wid))
        return True
    s.wait_for(x_focus, what="X input focus on xterm")
    type_dead_keys(v)
    v.keysym("Return")
    got = s.wait_written(xterm, out, "xterm")
    harness.expect_eq(got, EXPECTED + "\n",
                      "dead keys typed into xterm with layout %s" % layout)
    xterm.kill()
    s.wait_no_window(title=title)


def into_weston_terminal(s, v, layout):
    out = s.tmp / ("weston-terminal-%s.txt" % layout)
    term = s.spawn([tool("weston-terminal"), "--shell=/bin/sh"],
                   env={"SHELL": "/bin/sh", "ENV": "", "PS1": "$ "})
    win = s.wait_window(app_id="org.freedesktop.weston.wayland-terminal",
                        where=lambda w: w["width"] > 0 and w["height"] > 0,
                        what="weston-terminal's window")
    focus(s, v, win)
    v.type("printf '%s\\n' '")
    type_dead_keys(v)
    v.type("' > %s" % out)
    v.keysym("Return")
    got = s.wait_written(term, out, "weston-terminal")
    harness.expect_eq(got, EXPECTED + "\n",
                      "dead keys typed into weston-terminal with layout %s" % layout)
    term.kill()


def run(layout):
    port = vnc.free_port()
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-dead-") as d:
        config = Path(d) / "oriel.ini"
        config.write_text("[keyboard]\nlayout = %s\n" % layout)
        with Session(outputs=["1024x768"], config=config,
                     args=vnc.vnc_args(port)) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            v = vnc.Viewer(s, vnc.tcp(port))
            v.wait_connected()
            into_xterm(s, v, layout)
            into_weston_terminal(s, v, layout)


def main():
    for layout in ("de", "us"):
        run(layout)


if __name__ == "__main__":
    harness.run(main)
