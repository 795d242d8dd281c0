#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A Wayland client's pixels land exactly where its window is.

oriel-test-colour fills a 320x240 xdg toplevel with one colour.  The
screenshot shows exactly that colour over exactly the content rectangle
that `orielctl windows` reports, and the 1-px ring just outside it is not
that colour.
"""
import harness
from harness import Session, expect, expect_eq, geometry

COLOUR = (0xd0, 0x20, 0x40)


def main():
    with Session(outputs=["1024x768"]) as s:
        client = s.spawn_colour(COLOUR, size=(320, 240), title="colour test",
                                app_id="org.oriel.test.colour")
        client.wait_ready(size=(320, 240))
        win = s.wait_window(app_id="org.oriel.test.colour", kind="wayland")
        expect_eq(win["title"], "colour test", "title")
        expect_eq((win["width"], win["height"]), (320, 240), "window size")
        expect_eq(win["pid"], client.pid, "pid of the window")

        exclude = s.park_pointer()
        rect = geometry(win)
        s.wait_colour(rect, COLOUR, tolerance=0,
                      what="the client's colour over %r" % (rect,))

        shot = s.screenshot()
        out = s.output()
        expect_eq((shot.width, shot.height), (out["width"], out["height"]),
                  "screenshot size vs output size")
        x, y, w, h = rect
        expect_eq(shot.count_colour(rect, COLOUR, 0), w * h,
                  "pixels of the colour inside the window")
        for edge in harness.ring(rect):
            clipped = shot.clip(edge)
            if clipped[2] == 0 or clipped[3] == 0:
                continue
            n = shot.count_colour(edge, COLOUR, 0, exclude=exclude)
            expect(n == 0, "the window's colour spills onto the ring %r: %s"
                   % (edge, shot.describe(edge)))
        # Nowhere else on screen either.
        total = shot.count_colour((0, 0, shot.width, shot.height), COLOUR, 0)
        expect_eq(total, w * h, "pixels of the colour on the whole screenshot")


if __name__ == "__main__":
    harness.run(main)
