#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The server-side frame of an X window works like a window manager's.

With xterm:
- minimize, maximize and close glyphs are drawn where the layout says;
- dragging the title bar moves it by the drag (orielctl and xwininfo);
- dragging the bottom-right corner resizes it by the drag, snapped to
  xterm's character increments, its top-left corner staying put;
- a double-click on the title bar maximizes it, the restore button
  restores it to where it was;
- the minimize button minimizes it (the window list says so);
- the close button closes it through WM_DELETE_WINDOW: xterm exits by
  itself, with no X I/O error.
An xclient without decorations (_MOTIF_WM_HINTS decorations 0) has no
frame: a click where its close button would be does nothing.
"""
import re

import harness
from harness import NotYet, Session, expect, expect_eq, geometry, tool
from frame import button_rect, centre, check_buttons, click, double_click, drag, title_point
from xclient import spawn

FOCUSED = (41, 89, 153)  # decoration.c title_focused


def increments(s, wid):
    out = s.xprop(wid, "WM_NORMAL_HINTS")
    m = re.search(r"resize increment: (\d+) by (\d+)", out)
    expect(m, "xterm has no resize increments: %s" % out)
    return int(m.group(1)), int(m.group(2))


def main():
    with Session(outputs=["1280x720"]) as s:
        xterm = s.spawn_x([tool("xterm"), "-geometry", "60x15+200+150",
                           "-title", "xframe"])
        win = s.wait_window(title="xframe", kind="x11", where=lambda w: w["focused"])
        xid = s.wait_x_window("XTerm")
        wid = win["id"]
        inc_w, inc_h = increments(s, xid)
        s.park_pointer()

        def buttons_drawn():
            try:
                check_buttons(s.screenshot(), s.window_by(id=wid), FOCUSED, "buttons")
            except harness.TestFailure as e:
                raise NotYet(str(e))
            return True
        s.wait_for(buttons_drawn, what="xterm's title bar buttons")

        def at(box):
            return s.wait_window(id=wid, where=lambda w: geometry(w) == tuple(box),
                                 what="xterm at %r" % (tuple(box),))

        # -- Title bar drag moves
        x, y, w, h = geometry(win)
        drag(s, title_point(win), (120, 70))
        win = at((x + 120, y + 70, w, h))

        def x_position():
            info = s.xwininfo(xid)
            if (info["x"], info["y"]) != (x + 120, y + 70):
                raise NotYet("xwininfo has %r" % ((info["x"], info["y"]),))
            return True
        s.wait_for(x_position, what="xterm to know where it was moved")

        # -- The bottom-right corner resizes, on xterm's grid
        x, y, w, h = geometry(win)
        drag(s, (x + w + 3, y + h + 3), (100, 60))

        def resized():
            got = s.window_by(id=wid)
            gw, gh = got["width"], got["height"]
            if (gw, gh) == (w, h):
                raise NotYet("still %dx%d" % (w, h))
            if abs(gw - (w + 100)) >= inc_w or abs(gh - (h + 60)) >= inc_h:
                raise NotYet("%dx%d is not within an increment of %dx%d"
                             % (gw, gh, w + 100, h + 60))
            return got
        win = s.wait_for(resized, what="xterm resized by the corner drag")
        expect_eq((win["x"], win["y"]), (x, y), "top-left corner after the resize")
        expect((win["width"] - w) % inc_w == 0 and (win["height"] - h) % inc_h == 0,
               "%dx%d is off xterm's %dx%d grid (from %dx%d)"
               % (win["width"], win["height"], inc_w, inc_h, w, h))

        def x_size():
            info = s.xwininfo(xid)
            if (info["width"], info["height"]) != (win["width"], win["height"]):
                raise NotYet("xwininfo has %r" % ((info["width"], info["height"]),))
            return True
        s.wait_for(x_size, what="xterm to take the new size")

        # -- Double-click maximizes, restore button restores
        restored = geometry(win)
        double_click(s, title_point(win),
                     lambda: s.window_by(id=wid)["maximized"], "title bar double-click")
        win = s.wait_window(id=wid, where=lambda w: w["width"] > 1000,
                            what="xterm to fill the output")
        click(s, centre(button_rect(win, "maximize")))
        win = at(restored)
        expect(not win["maximized"], "restore left it maximized: %r" % win)

        # -- Minimize
        click(s, centre(button_rect(win, "minimize")))
        s.wait_window(id=wid, where=lambda w: w["minimized"], what="xterm minimized")
        s.orielctl("minimize", wid, "off", json=False)
        win = s.wait_window(id=wid, where=lambda w: not w["minimized"] and w["focused"],
                            what="xterm back")

        # -- Close, through WM_DELETE_WINDOW
        click(s, centre(button_rect(win, "close")))
        xterm.wait()
        s.wait_no_window(id=wid)
        expect(not re.search(r"I/?O error|connection to .* broken", xterm.log(), re.I),
               "xterm was killed, not asked to close:\n" + xterm.log())

        # -- No frame, no buttons
        bare, _ = spawn(s, "bare", "--motif-decorations", "0", "--position", "300,200")
        win = s.wait_window(title="bare", kind="x11")
        click(s, centre(button_rect(win, "close")))
        s.orielctl("windows")
        expect(bare.alive() and "delete-window" not in bare.log(),
               "an undecorated window was closed by a click above it")


if __name__ == "__main__":
    harness.run(main)
