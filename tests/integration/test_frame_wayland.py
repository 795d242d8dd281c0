#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The server-side frame of a Wayland client works like a window manager's.

A colour client that asks for server-side decorations gets a title bar with
minimize, maximize and close glyphs where the layout puts them, and:

- dragging the title bar moves the window by the drag;
- a double-click on the title bar maximizes it; the maximize button (drawn
  as restore now) restores it, and a click on maximize maximizes it again;
- dragging the right edge, the bottom edge, the left edge and the
  bottom-right corner (in the invisible margin outside the 1 px border)
  resizes it by the drag, the opposite edges staying put, and the client
  presents the new size;
- the minimize button minimizes it: the window list says so and its colour
  is gone from the screen;
- a press on close released elsewhere does nothing (as in every window
  manager); a click on close makes the client exit as asked to.
"""
import harness
from harness import Session, expect, expect_eq, geometry
from frame import (MARGIN, button_rect, centre, check_buttons, click, double_click,
                   drag, title_point)

OUTPUT = (1280, 720)
COLOUR = (0x2a, 0xb0, 0x5c)
OTHER = (0xc0, 0x40, 0xa0)
SIZE = (320, 240)
FOCUSED = (41, 89, 153)  # decoration.c title_focused
APP_ID = "org.oriel.test.frame"


def main():
    with Session(outputs=["%dx%d" % OUTPUT]) as s:
        c, win = s.colour_window_at(COLOUR, SIZE, (200, 150), "frame", APP_ID)
        wid = win["id"]
        exclude = s.park_pointer()
        s.wait_colour(geometry(win), COLOUR, exclude=exclude, what="the window")

        def buttons_drawn():
            try:
                check_buttons(s.screenshot(), s.window_by(id=wid), FOCUSED, "buttons")
            except harness.TestFailure as e:
                raise harness.NotYet(str(e))
            return True
        s.wait_for(buttons_drawn, what="the title bar's buttons")

        def at(box):
            return s.wait_window(id=wid, where=lambda w: geometry(w) == tuple(box),
                                 what="the window at %r" % (tuple(box),))

        # -- Title bar drag moves
        drag(s, title_point(win), (150, 80))
        x, y, w, h = geometry(win)
        win = at((x + 150, y + 80, w, h))
        expect(win["focused"], "the dragged window is not focused")
        expect_eq(c.size(), SIZE, "size after a title bar drag")

        # -- Double-click maximizes; the restore button restores
        restored = geometry(win)
        double_click(s, title_point(win),
                     lambda: s.window_by(id=wid)["maximized"], "title bar double-click")
        win = s.wait_window(id=wid, where=lambda w: w["width"] > SIZE[0] + 500,
                            what="the maximized window's size")
        click(s, centre(button_rect(win, "maximize")))
        win = at(restored)
        expect(not win["maximized"], "restore left it maximized: %r" % win)
        click(s, centre(button_rect(win, "maximize")))
        win = s.wait_window(id=wid, where=lambda w: w["maximized"] and
                            w["width"] > SIZE[0] + 500, what="maximized by the button")
        click(s, centre(button_rect(win, "maximize")))
        win = at(restored)

        # -- Edges and a corner resize, in the margin outside the border
        x, y, w, h = geometry(win)
        drag(s, (x + w + MARGIN // 2 + 1, y + h // 2), (60, 0))
        c.wait_ready(size=(w + 60, h))
        win = at((x, y, w + 60, h))
        x, y, w, h = geometry(win)
        drag(s, (x + w // 2, y + h + MARGIN // 2 + 1), (0, 40))
        c.wait_ready(size=(w, h + 40))
        win = at((x, y, w, h + 40))
        x, y, w, h = geometry(win)
        drag(s, (x - MARGIN // 2 - 1, y + h // 2), (-50, 0))
        c.wait_ready(size=(w + 50, h))
        win = at((x - 50, y, w + 50, h))
        x, y, w, h = geometry(win)
        drag(s, (x + w + 2, y + h + 2), (30, -20))
        c.wait_ready(size=(w + 30, h - 20))
        win = at((x, y, w + 30, h - 20))
        exclude = s.park_pointer()
        s.wait_colour(geometry(win), COLOUR, exclude=exclude, what="the resized window")

        # -- Minimize
        click(s, centre(button_rect(win, "minimize")))
        s.wait_window(id=wid, where=lambda w: w["minimized"], what="minimized")
        exclude = s.park_pointer()

        def gone():
            shot = s.screenshot()
            n = shot.count_colour((0, 0, shot.width, shot.height), COLOUR, 0,
                                  exclude=exclude)
            if n:
                raise harness.NotYet("%d pixels of its colour still shown" % n)
            return True
        s.wait_for(gone, what="the minimized window to leave the screen")

        # -- Close acts on release over the button only
        d, other = s.colour_window_at(OTHER, SIZE, (400, 200), "frame close",
                                      APP_ID + ".close")
        close = centre(button_rect(other, "close"))
        drag(s, close, (-120, 0))
        s.orielctl("windows")
        expect(d.alive(), "close acted though released off the button")
        click(s, close)
        d.wait()
        expect("close requested" in d.log(), "no xdg_toplevel.close:\n" + d.log())
        s.wait_no_window(id=other["id"])


if __name__ == "__main__":
    harness.run(main)
