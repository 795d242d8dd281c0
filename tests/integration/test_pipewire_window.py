#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A window cast shows the window's own surfaces only.

A red window is cast while a blue window covers most of it: every pixel
of the consumer's frames is red, at the window's size. The red window
keeps drawing while covered (its commits still reach the cast: a resize
arrives as a renegotiated size with red frames of that size). Closing
the window ends the stream with an error state the consumer sees, and
the cast leaves the list.
"""
import json

import harness
import pipewire
from harness import NotYet, Session, expect, expect_eq, geometry, T

RED = (0xd0, 0x20, 0x30)
BLUE = (0x20, 0x40, 0xe0)


def all_red(s, c, size):
    def got():
        expect(c.client.alive(), "the consumer exited: %s" % c.client.log())
        fs = [f for f in c.frames() if f["size"] == size]
        if not fs:
            raise NotYet("no %dx%d frame yet (formats %r)" % (size + (c.formats(),)))
        img = c.image(fs[-1]["seq"])
        expect_eq((img.width, img.height), size, "the picture's size")
        bad = img.first_mismatch((0, 0) + size, RED, tolerance=2)
        if bad is not None:
            raise NotYet("frame %d: %r %s" % (fs[-1]["seq"], bad,
                                              img.describe((0, 0) + size)))
        return img
    return s.wait_for(got, T(15), "all-red %dx%d frames" % size)


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        pipewire.start(s)
        red = s.spawn_colour(RED, size=(200, 150), title="red", app_id="org.oriel.test.red")
        red.wait_ready(size=(200, 150))
        wr = s.wait_window(app_id="org.oriel.test.red")
        s.orielctl("move", wr["id"], 100, 100)
        blue = s.spawn_colour(BLUE, size=(180, 130), title="blue",
                              app_id="org.oriel.test.blue")
        blue.wait_ready(size=(180, 130))
        wb = s.wait_window(app_id="org.oriel.test.blue")
        s.orielctl("move", wb["id"], 130, 120)
        rect_b = (130, 120, 180, 130)
        s.wait_colour(rect_b, BLUE)

        cast = pipewire.Cast(s, window=wr["id"])
        c = pipewire.Consumer(s, cast.node)
        expect_eq(c.wait_format(), (200, 150, "BGRx"), "the window cast's format")
        all_red(s, c, (200, 150))
        # The screen really shows blue over the red window.
        shot = s.screenshot()
        expect_eq(shot.pixel(150, 150), BLUE, "the screen shows the covering window")

        # Resized while covered: renegotiated, still only red.
        s.orielctl("resize", wr["id"], 260, 170)
        red.wait_ready(size=(260, 170))
        all_red(s, c, (260, 170))
        expect_eq(c.formats()[-1], (260, 170, "BGRx"), "the renegotiated format")
        expect(cast.alive(), "the cast goes on after the resize")

        # Closing the window ends the stream with an error.
        s.orielctl("close", wr["id"])

        def ended():
            errors = [l for l in c.lines() if l.startswith("node-error ")]
            errors += [st for st in c.states() if st.startswith("error")]
            if not errors:
                raise NotYet("consumer states %r" % c.states())
            return errors
        errors = s.wait_for(ended, T(10), "the consumer to see an error state")
        expect(any("window closed" in e for e in errors),
               "the error says the window closed: %r" % errors)

        def unlisted():
            ids = [x["id"] for x in json.loads(s.orielctl("cast", "list", "--json",
                                                          json=False))]
            if cast.id in ids or cast.alive():
                raise NotYet("cast %d still listed or running" % cast.id)
            return True
        s.wait_for(unlisted, T(10), "the window cast to end")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
