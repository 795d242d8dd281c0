#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""EWMH requests clients send to the root window.

With oriel-test-xclient (and its "send" mode, which sends a client message
as an app or a pager would):
- _NET_REQUEST_FRAME_EXTENTS before mapping gets _NET_FRAME_EXTENTS
  1, 1, 25, 1 (border 1, title 24 + border);
- _NET_WM_ALLOWED_ACTIONS lists move, resize, minimize, maximize,
  fullscreen and close;
- _NET_MOVERESIZE_WINDOW with NorthWest gravity puts the frame's corner at
  the point; with Static gravity the content; and resizes;
- _NET_WM_MOVERESIZE (move) follows the pointer until _NET_WM_MOVERESIZE_CANCEL;
- _NET_ACTIVE_WINDOW: an app's request older than the focused window's
  _NET_WM_USER_TIME (or with no timestamp) does not steal focus: the window
  gets the attention indicator instead; a newer one, or a pager's, focuses.
"""

import harness
from harness import NotYet, Session, expect, expect_eq
from xclient import spawn, xclient_path

ATTENTION = (255, 140, 0)   # decoration.c title_attention
TITLE = 24


def title_orange(s, title):
    win = s.window_by(title=title)
    rect = (win["x"] + 2, win["y"] - TITLE + 2, win["width"] - 4, 4)
    img = s.screenshot(region=rect)
    return img.count_colour((0, 0, rect[2], rect[3]), ATTENTION, 12) > rect[2] * rect[3] // 2


def geometry_of(s, title):
    w = s.window_by(title=title)
    return (w["x"], w["y"], w["width"], w["height"])


def wait_geometry(s, title, expected, what):
    def check():
        got = geometry_of(s, title)
        if got != expected:
            raise NotYet("geometry %r" % (got,))
        return got
    s.wait_for(check, what=what)


def main():
    with Session(outputs=["1024x768"]) as s:
        send = lambda *args: s.x_tool(xclient_path(), "send", *[str(a) for a in args])

        early, early_wid = spawn(s, "early", "--request-extents")
        s.wait_for(lambda: "frame-extents 1 1 25 1" in early.log() or
                   (_ for _ in ()).throw(NotYet(early.log())),
                   what="_NET_FRAME_EXTENTS answer before mapping")
        win = s.wait_window(title="early", kind="x11")
        actions = s.xprop(early_wid, "_NET_WM_ALLOWED_ACTIONS")
        for action in ("MOVE", "RESIZE", "MINIMIZE", "MAXIMIZE_HORZ", "MAXIMIZE_VERT",
                       "FULLSCREEN", "CLOSE"):
            expect("_NET_WM_ACTION_" + action in actions, "%s missing: %s" % (
                action, actions))

        # _NET_MOVERESIZE_WINDOW: flags = gravity | x, y, width, height given.
        send("_NET_MOVERESIZE_WINDOW", early_wid, 0xf01, 100, 150, 320, 180)
        wait_geometry(s, "early", (101, 175, 320, 180),
                      "NorthWest: the frame's corner at 100,150")
        send("_NET_MOVERESIZE_WINDOW", early_wid, 0x30a, 300, 200, 0, 0)
        wait_geometry(s, "early", (300, 200, 320, 180), "Static: the content at 300,200")
        send("_NET_MOVERESIZE_WINDOW", early_wid, 0x401, 0, 0, 250, 0)
        wait_geometry(s, "early", (300, 200, 250, 180), "only the width changed")

        # _NET_WM_MOVERESIZE move, then cancel.
        s.pointer_move(400, 300)
        s.orielctl("pointer", "button", "left", "press", json=False)
        send("_NET_WM_MOVERESIZE", early_wid, 400, 300, 8, 1, 1)
        s.pointer_move(450, 340)
        wait_geometry(s, "early", (350, 240, 250, 180), "moved with the pointer")
        send("_NET_WM_MOVERESIZE", early_wid, 450, 340, 11, 1, 1)
        # Round trip through the X server: the cancel was processed after this.
        s.wait_for(lambda: s.xprop(early_wid, "WM_NAME"), what="a round trip")
        s.pointer_move(600, 500)
        s.wait_for(lambda: s.windows(), what="orielctl")
        expect_eq(geometry_of(s, "early"), (350, 240, 250, 180),
                  "geometry after _NET_WM_MOVERESIZE_CANCEL and more motion")
        s.orielctl("pointer", "button", "left", "release", json=False)

        # Focus-stealing prevention.
        _, back_wid = spawn(s, "background", "--position", "20,400", "--size", "300x100")
        s.wait_window(title="background", where=lambda w: w["focused"])
        _, front_wid = spawn(s, "front", "--position", "600,400", "--size", "300x100",
                             "--user-time", 100000)
        s.wait_window(title="front", where=lambda w: w["focused"])
        send("_NET_ACTIVE_WINDOW", back_wid, 1, 50, 0)
        s.wait_for(lambda: title_orange(s, "background") or
                   (_ for _ in ()).throw(NotYet("no attention")),
                   what="an old activation request gives attention")
        expect(s.window_by(title="front")["focused"], "an old request stole focus")
        send("_NET_ACTIVE_WINDOW", back_wid, 1, 0, 0)
        s.wait_for(lambda: s.xprop(back_wid, "WM_NAME"), what="a round trip")
        expect(s.window_by(title="front")["focused"], "a request without time stole focus")
        send("_NET_ACTIVE_WINDOW", back_wid, 1, 200000, 0)
        s.wait_window(title="background", where=lambda w: w["focused"],
                      what="a newer request focuses")
        expect(not title_orange(s, "background"), "attention left after focus")
        send("_NET_ACTIVE_WINDOW", front_wid, 2, 0, 0)
        s.wait_window(title="front", where=lambda w: w["focused"],
                      what="a pager's request focuses")


if __name__ == "__main__":
    harness.run(main)
