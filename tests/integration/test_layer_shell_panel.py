#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A layer-shell panel reserves its space.

A top panel 40 px high with an exclusive zone of 40 is drawn across the
top of the output, and a window that asks to be maximized afterwards
fills the rest: its frame starts at y = 40 and ends at the bottom of the
output.  (The frame's insets - title bar and border, 0 if there is no
server-side decoration - are measured first from a maximized window
without the panel, so the test checks the reserved space, not the
decoration style: with no decoration, y == 40 and height == H - 40.)
"""
import harness
from harness import NotYet, Session, expect, expect_eq, geometry

OUTPUT = (1024, 768)
PANEL = (0x80, 0x40, 0x10)
COLOUR = (0x30, 0x50, 0xe0)
HEIGHT = 40


def main():
    with Session(outputs=["%dx%d" % OUTPUT]) as s:
        ox, oy, ow, oh = s.output_rect()

        # Frame insets of a maximized window with nothing reserved.
        ref = s.spawn_colour(COLOUR, size=(200, 100), title="reference",
                             app_id="org.oriel.test.reference", maximize=True)
        wref = s.wait_window(app_id="org.oriel.test.reference",
                             where=lambda w: w["maximized"] and
                             _fills(w, (ox, oy, ow, oh)),
                             what="a maximized window to fill the output")
        top, side = harness.fills_area(wref, (ox, oy, ow, oh))
        ref.wait_ready(size=(wref["width"], wref["height"]))
        s.orielctl("close", wref["id"])
        expect_eq(ref.wait(timeout=10), 0, "reference client's exit status after close")
        s.wait_no_window(id=wref["id"])

        panel = s.spawn_panel(HEIGHT, PANEL)
        size = panel.wait_ready()
        expect_eq(size, (ow, HEIGHT), "panel size as presented")

        c = s.spawn_colour(COLOUR, size=(200, 100), title="maximized",
                           app_id="org.oriel.test.max", maximize=True)
        usable = (ox, oy + HEIGHT, ow, oh - HEIGHT)
        expected = (usable[0] + side, usable[1] + top,
                    usable[2] - 2 * side, usable[3] - top - side)

        def placed(w):
            return w["maximized"] and geometry(w) == expected
        try:
            win = s.wait_window(app_id="org.oriel.test.max", where=placed,
                                what="the maximized window to fill the space "
                                "below the panel, at %r" % (expected,))
        except harness.TestFailure:
            w = s.window_by(app_id="org.oriel.test.max")
            raise harness.TestFailure(
                "maximized window below a %d px panel: expected content %r "
                "(frame insets top %d, sides %d), got %r" % (
                    HEIGHT, expected, top, side, w and geometry(w)))
        if (top, side) == (0, 0):
            expect_eq((win["y"], win["height"]), (HEIGHT, oh - HEIGHT),
                      "maximized window y and height below the panel")
        c.wait_ready(size=(win["width"], win["height"]))

        exclude = s.park_pointer()
        s.wait_colour((ox, oy, ow, HEIGHT), PANEL,
                      what="the panel across the top %d rows" % HEIGHT)
        s.wait_colour(geometry(win), COLOUR, exclude=exclude,
                      what="the maximized window's colour below the panel")
        shot = s.screenshot()
        below = (0, HEIGHT, shot.width, shot.height - HEIGHT)
        n = shot.count_colour(below, PANEL, 0)
        expect(n == 0, "panel colour below the panel: %d pixels" % n)


def _fills(w, area):
    try:
        harness.fills_area(w, area)
        return True
    except NotYet:
        return False


if __name__ == "__main__":
    harness.run(main)
