#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A virtual cast: `orielctl cast start --virtual WxH` makes an output that
lives as long as the cast.

The new output is listed by `orielctl outputs` beside the real one, at the
asked size. Its consumer fixates another size out of the range the stream
offers, and the output takes that size. A window moved onto the virtual
output shows in the consumer's frames where it is on that output. When
the consumer goes away (SIGKILL) the cast ends and the output disappears;
the window comes back onto the real output, and oriel is fine.
"""
import json
import signal

import harness
import pipewire
from harness import NotYet, Session, expect, expect_eq, geometry, T

RED = (0xd0, 0x20, 0x30)
REAL = (640, 480)
ASKED = (400, 300)
FIXATED = (512, 320)


def listed(s):
    return json.loads(s.orielctl("cast", "list", "--json", json=False))


def main():
    with Session(outputs=["%dx%d" % REAL]) as s:
        s.park_pointer()
        pipewire.start(s)
        real = s.output()["name"]
        cast = pipewire.Cast(s, virtual=ASKED)
        casts = listed(s)
        expect_eq(len(casts), 1, "one cast listed")
        name = casts[0]["output"]
        expect(name != real, "the cast is of a new output, not %s" % real)
        out = s.output(name)
        expect_eq((out["width"], out["height"]), ASKED, "the virtual output's size")
        expect_eq(len(s.outputs()), 2, "two outputs while the cast lives")

        c = pipewire.Consumer(s, cast.node, size=FIXATED)
        expect_eq(c.wait_format(), FIXATED + ("BGRx",), "the fixated format")

        def resized():
            o = s.output(name)
            if (o["width"], o["height"]) != FIXATED:
                raise NotYet("%s is %dx%d" % (name, o["width"], o["height"]))
            return o
        out = s.wait_for(resized, T(10), "the virtual output to take the fixated size")

        pos = (out["x"] + 60, out["y"] + 40)
        _, win = s.colour_window_at(RED, (160, 120), pos, "red", "org.oriel.test.red")
        local = (60, 40, 160, 120)

        def shows():
            expect(c.client.alive(), "the consumer exited: %s" % c.client.log())
            fs = [f for f in c.frames() if f["size"] == FIXATED]
            if not fs:
                raise NotYet("no %dx%d frame yet" % FIXATED)
            img = c.image(fs[-1]["seq"])
            expect_eq((img.width, img.height), FIXATED, "the picture's size")
            if img.first_mismatch(local, RED, tolerance=2) is not None:
                raise NotYet("frame %d: %s" % (fs[-1]["seq"], img.describe(local)))
            return True
        s.wait_for(shows, T(15), "the window in the virtual cast's frames")

        c.client.kill(signal.SIGKILL)

        def gone():
            names = [o["name"] for o in s.outputs()]
            if name in names or listed(s) or cast.alive():
                raise NotYet("outputs %r, casts %r" % (names, listed(s)))
            return names
        names = s.wait_for(gone, T(10), "the virtual output to go with its cast")
        expect_eq(names, [real], "only the real output is left")
        # The window it showed is not lost off-screen: it is back on the real one.
        def visible(w):
            return (w["x"] >= 0 and w["y"] >= 0 and w["x"] + w["width"] <= REAL[0] and
                    w["y"] + w["height"] <= REAL[1])
        win = s.wait_window(id=win["id"], where=visible,
                            what="the window to come back onto %s" % real)
        s.wait_colour(geometry(win), RED)
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
