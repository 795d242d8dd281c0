#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Alt + drag moves and resizes windows, as a person does with the mouse.

- Alt held (orielctl key keysym Alt_L press), left button pressed inside a
  colour client and dragged by (+150,+80), released: `orielctl windows`
  has the window exactly (150,80) further, its size unchanged, and the
  screenshot shows its colour over the new rectangle and none of it over
  the part of the old rectangle the window left.
- Alt + right button pressed near the window's bottom-right corner and
  dragged by (+100,+60): the client is given and presents a size exactly
  (100,60) larger (its ready file), the windows list agrees, the top-left
  corner stays where it was, and the screenshot shows the colour over the
  whole bigger rectangle.
"""
import harness
from harness import Session, expect, expect_eq, geometry

OUTPUT = (1280, 720)
COLOUR = (0x2a, 0xb0, 0x5c)
SIZE = (320, 240)
START = (200, 150)
MOVE_BY = (150, 80)
GROW_BY = (100, 60)
APP_ID = "org.oriel.test.altdrag"


def main():
    with Session(outputs=["%dx%d" % OUTPUT]) as s:
        c = s.spawn_colour(COLOUR, size=SIZE, title="alt drag", app_id=APP_ID)
        c.wait_ready(size=SIZE)
        win = s.wait_window(app_id=APP_ID)
        wid = win["id"]
        # A known place, well inside the output, so that both drags stay
        # on it.
        s.orielctl("move", wid, *START)
        win = s.wait_window(id=wid, where=lambda w: geometry(w) == START + SIZE,
                            what="the window at %r" % (START + SIZE,))
        exclude = s.park_pointer()
        s.wait_colour(geometry(win), COLOUR, exclude=exclude,
                      what="the window's colour at its start position")

        # -- Alt + left drag: move
        old = geometry(win)
        grab = (old[0] + 60, old[1] + 50)
        _alt_drag(s, "left", grab, MOVE_BY)
        moved = (old[0] + MOVE_BY[0], old[1] + MOVE_BY[1]) + SIZE
        win = s.wait_window(id=wid, where=lambda w: geometry(w) == moved,
                            what="the window to be at %r after the Alt-drag "
                            "from %r" % (moved, old))
        expect(win["focused"], "the dragged window is not focused: %r" % win)
        expect_eq(c.size(), SIZE, "size the client presents after a move")

        exclude = s.park_pointer()
        s.wait_colour(moved, COLOUR, exclude=exclude,
                      what="the window's colour at the new place %r" % (moved,))
        shot = s.screenshot()
        # What the window left: the strips of the old rectangle that the
        # new one does not cover (the left and the top; any title bar of
        # the moved window is drawn there in other colours).
        left_strip = (old[0], old[1], MOVE_BY[0], old[3])
        top_strip = (old[0], old[1], old[2], MOVE_BY[1])
        for strip in (left_strip, top_strip):
            n = shot.count_colour(strip, COLOUR, tolerance=2, exclude=exclude)
            expect(n == 0, "%d pixels of the window's colour are left at its "
                   "old place %r: %s" % (n, strip, shot.describe(strip)))
        total = shot.count_colour((0, 0, shot.width, shot.height), COLOUR, 0)
        expect_eq(total, SIZE[0] * SIZE[1],
                  "pixels of the window's colour on the whole screen")

        # -- Alt + right drag near the bottom-right corner: resize
        x, y, w, h = moved
        grab = (x + w - 12, y + h - 10)
        _alt_drag(s, "right", grab, GROW_BY)
        want = (w + GROW_BY[0], h + GROW_BY[1])
        c.wait_ready(size=want)
        grown = (x, y) + want
        win = s.wait_window(id=wid, where=lambda w: geometry(w) == grown,
                            what="the window to be %r after the Alt-right-drag "
                            "(top-left kept at %r)" % (grown, (x, y)))
        exclude = s.park_pointer()
        s.wait_colour(grown, COLOUR, exclude=exclude,
                      what="the window's colour over its new size %r" % (grown,))
        shot = s.screenshot()
        total = shot.count_colour((0, 0, shot.width, shot.height), COLOUR, 0)
        expect_eq(total, want[0] * want[1],
                  "pixels of the window's colour on the whole screen after the resize")
        expect_eq(c.size(), want, "size the client presents after the resize")


def _alt_drag(s, button, start, by):
    """Alt down, press `button` at start, move by `by`, release, Alt up."""
    s.key_sym("Alt_L", "press")
    try:
        s.pointer_move(*start)
        s.orielctl("pointer", "button", button, "press", json=False)
        s.pointer_move(start[0] + by[0], start[1] + by[1])
        s.orielctl("pointer", "button", button, "release", json=False)
    finally:
        s.key_sym("Alt_L", "release")


if __name__ == "__main__":
    harness.run(main)
