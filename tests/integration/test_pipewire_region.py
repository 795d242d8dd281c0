#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A region cast spans outputs and follows their damage.

Two 320x240 outputs side by side; a red window on the first and a blue
one on the second. A cast of a region that straddles the outputs' edge
has the region's size and shows both windows where they are relative to
the region; a green window appearing on the second output arrives with
damage that covers it (in region coordinates) and not the whole region.
Its frames carry SPA_META_VideoCrop for the whole frame; a region that
reaches past the outputs' corner is cropped to the part on them.
"""
import harness
import pipewire
from harness import NotYet, Session, expect, expect_eq, geometry, T

RED = (0xd0, 0x20, 0x30)
BLUE = (0x20, 0x40, 0xe0)
GREEN = (0x20, 0xb0, 0x40)
REGION = (180, 40, 300, 160)


def rel(rect):
    return (rect[0] - REGION[0], rect[1] - REGION[1], rect[2], rect[3])


def place(s, colour, app, size, pos):
    w = s.spawn_colour(colour, size=size, title=app, app_id="org.oriel.test." + app)
    w.wait_ready(size=size)
    win = s.wait_window(app_id="org.oriel.test." + app)
    s.orielctl("move", win["id"], *pos)
    rect = pos + size
    s.wait_colour(rect, colour)
    return w, rect


def main():
    with Session(outputs=["320x240", "320x240"]) as s:
        s.park_pointer()
        pipewire.start(s)
        boxes = sorted(s.output_rect(o["name"]) for o in s.outputs())
        expect_eq([b[:2] for b in boxes], [(0, 0), (320, 0)], "the outputs side by side")
        _, red = place(s, RED, "red", (80, 60), (200, 60))
        _, blue = place(s, BLUE, "blue", (80, 60), (360, 60))

        cast = pipewire.Cast(s, region=REGION)
        c = pipewire.Consumer(s, cast.node)
        expect_eq(c.wait_format(), (REGION[2], REGION[3], "BGRx"), "the region's format")

        def both():
            fs = c.frames()
            if not fs:
                raise NotYet("no frame")
            img = c.image(fs[-1]["seq"])
            for rect, colour in ((red, RED), (blue, BLUE)):
                if img.first_mismatch(rel(rect), colour, tolerance=2) is not None:
                    raise NotYet("frame %d: %s" % (fs[-1]["seq"], img.describe(rel(rect))))
            return img
        img = s.wait_for(both, T(15), "both windows in the region cast")
        expect_eq((img.width, img.height), REGION[2:], "the picture's size")

        n = len(c.frames())
        _, green = place(s, GREEN, "green", (40, 30), (420, 150))

        def arrived():
            fs = c.frames()[n:]
            if not fs:
                raise NotYet("no new frame")
            img = c.image(fs[-1]["seq"])
            if img.first_mismatch(rel(green), GREEN, tolerance=2) is not None:
                raise NotYet("no green in frame %d" % fs[-1]["seq"])
            return fs
        fs = s.wait_for(arrived, T(10), "the green window in the region cast")
        damage = [r for f in fs for r in (f["damage"] or [])]
        expect(pipewire.covers(damage, rel(green)),
               "damage %r covers the green window at %r" % (damage, rel(green)))
        expect(not pipewire.covers(damage, (0, 0) + REGION[2:]),
               "the damage is not the whole region: %r" % damage)
        crops = {f["crop"] for f in c.frames()}
        expect_eq(crops, {(0, 0) + REGION[2:]}, "the crop of a region inside the outputs")

        # A region reaching past the outputs: the crop is the part on them.
        beyond = (540, 140, 200, 200)
        cast2 = pipewire.Cast(s, region=beyond)
        c2 = pipewire.Consumer(s, cast2.node)
        expect_eq(c2.wait_format(), (200, 200, "BGRx"), "the second region's format")

        def cropped():
            fs = c2.frames()
            if not fs:
                raise NotYet("no frame of the second region")
            return fs[-1]["crop"]
        expect_eq(s.wait_for(cropped, T(15), "a frame of the second region"),
                  (0, 0, 100, 100), "the crop of a region past the outputs' corner")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
