#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Three casts at once, each with its own consumer: two of the same output
and one of a region. One consumer is killed with SIGKILL; its cast ends,
and the other two go on delivering every change, while oriel answers and
lists exactly the two casts that are left.

Changes are windows of new colours placed inside the region, each awaited
in the frames of both surviving consumers.
"""
import json
import signal

import harness
import pipewire
from harness import NotYet, Session, expect, expect_eq, geometry, T

COLOURS = [(0xd0, 0x20, 0x30), (0x20, 0x40, 0xe0), (0x20, 0xb0, 0x40),
           (0xe0, 0xc0, 0x10)]
REGION = (40, 30, 320, 240)


def listed(s):
    return sorted(x["id"] for x in json.loads(s.orielctl("cast", "list", "--json",
                                                          json=False)))


def shows(s, consumer, since, rect, colour, what):
    def got():
        expect(consumer.client.alive(), "%s's consumer exited: %s" % (
            what, consumer.client.log()))
        fs = consumer.frames()[since:]
        if not fs:
            raise NotYet("no new frame in %s" % what)
        img = consumer.image(fs[-1]["seq"])
        if img.first_mismatch(rect, colour, tolerance=2) is not None:
            raise NotYet("%s frame %d: %s" % (what, fs[-1]["seq"], img.describe(rect)))
        return True
    s.wait_for(got, T(10), "%r in %s" % (colour, what))


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        pipewire.start(s)
        out = s.output()["name"]
        casts = [pipewire.Cast(s, out), pipewire.Cast(s, out),
                 pipewire.Cast(s, region=REGION)]
        consumers = [pipewire.Consumer(s, c.node) for c in casts]
        sizes = [(640, 480), (640, 480), REGION[2:]]
        for c, size in zip(consumers, sizes):
            expect_eq(c.wait_format(), size + ("BGRx",), "a consumer's format")
            c.wait_frames(1)
        expect_eq(listed(s), sorted(c.id for c in casts), "the three casts listed")

        consumers[0].client.kill(signal.SIGKILL)

        def first_gone():
            ids = listed(s)
            if casts[0].id in ids or casts[0].alive():
                raise NotYet("cast %d still listed or running" % casts[0].id)
            return True
        s.wait_for(first_gone, T(10), "the first cast to end")

        live = [(consumers[1], (0, 0), "the second output cast"),
                (consumers[2], REGION[:2], "the region cast")]
        for i, colour in enumerate(COLOURS):
            app = "org.oriel.test.c%d" % i
            size = (120 + 20 * i, 90)
            counts = [len(c.frames()) for c, _, _ in live]
            client, win = s.colour_window_at(colour, size, (60 + 10 * i, 50),
                                             "c%d" % i, app)
            rect = geometry(win)
            for (c, origin, what), n in zip(live, counts):
                local = (rect[0] - origin[0], rect[1] - origin[1], rect[2], rect[3])
                shows(s, c, n, local, colour, what)
            client.kill(signal.SIGTERM)
            s.wait_no_window(app_id=app)

        expect_eq(listed(s), sorted([casts[1].id, casts[2].id]),
                  "the two surviving casts listed")
        for cast in casts[1:]:
            expect(cast.alive(), "a surviving cast ended: %s" % cast.client.log())
        s.orielctl("outputs")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
