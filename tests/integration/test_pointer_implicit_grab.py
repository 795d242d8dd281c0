#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A button held on a window keeps the pointer there (the implicit grab).

xev (an X client) and a Wayland colour window side by side. The pointer
is pressed over xev and, still held, moved over the Wayland window:
- xev still gets the motion, at the layout position over the other window
  (root coordinates), as under any X server: scrollbars, selections and
  drags that leave their window go on;
- the release goes to xev too;
- once released, the window under the pointer gets it back: xev gets
  LeaveNotify.
"""
import re

import harness
from harness import NotYet, Session, expect, tool

COLOUR = (0x20, 0xa0, 0x60)
XEV_GEOMETRY = (50, 100, 200, 150)
WL_POS, WL_SIZE = (500, 100), (300, 200)


def events(xev):
    """(kind, root x, root y) of each event xev printed."""
    out = []
    for block in xev.log().split("\n\n"):
        m = re.match(r"\s*(\w+) event", block)
        root = re.search(r"root:\((-?\d+),(-?\d+)\)", block)
        if m:
            out.append((m.group(1), int(root.group(1)) if root else None,
                        int(root.group(2)) if root else None))
    return out


def wait_event(s, xev, kind, where, after=0, what=None):
    def check():
        got = events(xev)
        for i, (k, x, y) in enumerate(got[after:], after):
            if k == kind and (where is None or (x, y) == where):
                return i
        raise NotYet("xev events since #%d: %r" % (after, got[after:][-8:]))
    return s.wait_for(check, what=what or "%s at %r in xev" % (kind, where))


def main():
    with Session(outputs=["1024x768"]) as s:
        s.park_pointer()
        _, wl = s.colour_window_at(COLOUR, WL_SIZE, WL_POS, "beside", "org.oriel.test.beside")
        x, y, w, h = XEV_GEOMETRY
        xev = s.spawn_x([tool("xev"), "-event", "mouse", "-geometry",
                         "%dx%d+%d+%d" % (w, h, x, y), "-name", "grab-xev"])
        win = s.wait_window(title="grab-xev", kind="x11",
                            where=lambda v: v["width"] == w and v["height"] == h)
        inside = (win["x"] + w // 2, win["y"] + h // 2)
        s.pointer_move(*inside)
        wait_event(s, xev, "MotionNotify", inside, what="xev to see the pointer")

        s.orielctl("pointer", "button", "left", "press", json=False)
        pressed = wait_event(s, xev, "ButtonPress", inside)
        over_wl = (wl["x"] + wl["width"] // 2, wl["y"] + wl["height"] // 2)
        expect(not (win["x"] <= over_wl[0] < win["x"] + w),
               "the Wayland window overlaps xev: %r" % (win,))
        s.pointer_move(over_wl[0] - 100, over_wl[1])
        s.pointer_move(*over_wl)
        wait_event(s, xev, "MotionNotify", over_wl, after=pressed,
                   what="xev to get the held pointer's motion over the Wayland window")
        s.orielctl("pointer", "button", "left", "release", json=False)
        released = wait_event(s, xev, "ButtonRelease", over_wl, after=pressed,
                              what="the release over the Wayland window to go to xev")

        s.pointer_move(over_wl[0] + 10, over_wl[1] + 10)
        wait_event(s, xev, "LeaveNotify", None, after=released,
                   what="xev to lose the pointer once the button is released")
        s.check_alive()
        harness.log("events: %r" % events(xev)[pressed:])


if __name__ == "__main__":
    harness.run(main)
