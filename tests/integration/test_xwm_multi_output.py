#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""X windows on several outputs.

Two outputs side by side, 800x600 and 640x480:
- RandR inside Xwayland reflects them: `xrandr --listmonitors` in the
  session lists two monitors with those sizes at those places, and the
  root window spans both;
- an X window (xlogo) on the second output made fullscreen (wmctrl -b)
  covers exactly that output, in oriel's window list and in xwininfo;
  back from fullscreen, it returns where it was;
- maximized there, its frame fills that output, not the first;
- it opened where it asked, on the second output (USPosition there).
"""
import re

import harness
from harness import NotYet, Session, expect, expect_eq, tool

FIRST, SECOND = (800, 600), (640, 480)
TITLE, BORDER = 24, 1  # compositor/decoration.h


def x_geometry(s, wid):
    out = s.x_tool(tool("xwininfo"), "-id", str(wid)).stdout
    vals = {}
    for key, name in (("x", "Absolute upper-left X"), ("y", "Absolute upper-left Y"),
                      ("w", "Width"), ("h", "Height")):
        m = re.search(r"%s:\s+(-?\d+)" % re.escape(name), out)
        vals[key] = int(m.group(1))
    return (vals["x"], vals["y"], vals["w"], vals["h"])


def main():
    with Session(outputs=["%dx%d" % FIRST, "%dx%d" % SECOND]) as s:
        s.pointer_move(FIRST[0] - 1, FIRST[1] - 1)
        outs = sorted(s.outputs(), key=lambda o: o["x"])
        expect_eq([(o["width"], o["height"]) for o in outs], [FIRST, SECOND], "outputs")
        second = outs[1]
        box2 = (second["x"], second["y"], second["width"], second["height"])

        def monitors():
            out = s.x_tool(tool("xrandr"), "--listmonitors").stdout
            found = sorted((int(x), int(y), int(w), int(h)) for w, h, x, y in re.findall(
                r"(\d+)/\d+x(\d+)/\d+\+(-?\d+)\+(-?\d+)", out))
            want = sorted((o["x"], o["y"], o["width"], o["height"]) for o in outs)
            if found != want:
                raise NotYet("xrandr --listmonitors: %r, want %r" % (found, want))
            return True
        s.wait_for(monitors, what="RandR to list both outputs")
        root = s.x_tool(tool("xwininfo"), "-root").stdout
        width = int(re.search(r"Width:\s+(\d+)", root).group(1))
        expect_eq(width, FIRST[0] + SECOND[0], "the root window's width")

        place = (second["x"] + 100, second["y"] + 80)
        s.spawn_x([tool("xlogo"), "-geometry", "200x150+%d+%d" % place, "-title", "right"])
        win = s.wait_window(title="right", kind="x11",
                            where=lambda w: (w["width"], w["height"]) == (200, 150))
        expect(second["x"] <= win["x"] < second["x"] + second["width"],
               "the window is not on the second output: %r" % (win,))
        wid = s.wait_x_window("XLogo")
        before = harness.geometry(win)

        def wmctrl(*args):
            s.x_tool(tool("wmctrl"), "-i", "-r", str(wid), "-b", *args)

        def covers(box, what):
            def check():
                w = s.window_by(id=win["id"])
                if harness.geometry(w) != box:
                    raise NotYet("oriel: %r" % (harness.geometry(w),))
                if x_geometry(s, wid) != box:
                    raise NotYet("xwininfo: %r" % (x_geometry(s, wid),))
                return True
            s.wait_for(check, what=what)

        wmctrl("add,fullscreen")
        covers(box2, "fullscreen to cover the second output exactly")
        wmctrl("remove,fullscreen")

        def back():
            now = harness.geometry(s.window_by(id=win["id"]))
            if now != before:
                raise NotYet("at %r, was %r" % (now, before))
            return True
        s.wait_for(back, what="the window back where it was")

        wmctrl("add,maximized_vert,maximized_horz")

        def maximized():
            w = s.window_by(id=win["id"])
            x, y, ww, hh = harness.geometry(w)
            # The frame: a 24 px title bar and a 1 px border around the content.
            frame = (x - BORDER, y - TITLE - BORDER, ww + 2 * BORDER, hh + TITLE + 2 * BORDER)
            if not w["maximized"] or frame != box2:
                raise NotYet("frame %r, maximized %r" % (frame, w["maximized"]))
            return True
        s.wait_for(maximized, what="maximize to fill the second output")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
