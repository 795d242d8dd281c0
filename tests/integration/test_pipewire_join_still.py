#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A consumer that joins a running cast of a still window gets a frame.

A window cast has its first consumer and its first frame; nothing on the
screen changes after that. A second consumer then connects to the same
node: it must get a complete frame (the window's pixels, damage covering
the whole frame) although the window does not change. The frame it gets
goes to the first consumer too; after it, a small change (a patch of the
window toggled by SIGUSR1, damaging only the patch) still reaches the
first consumer with exactly the patch as its damage, and reaches the
second one with the right pixels.
"""
import signal

import harness
import pipewire
from harness import NotYet, Session, expect, expect_eq, T

RED = (0xd0, 0x20, 0x30)
BLUE = (0x20, 0x40, 0xe0)
SIZE = (200, 150)
PATCH = (20, 30, 40, 20)


def frame_with(s, c, since, patch_colour, what):
    def got():
        expect(c.client.alive(), "%s exited: %s" % (what, c.client.log()))
        fs = c.frames()[since:]
        if not fs:
            raise NotYet("no frame in %s (states %r)" % (what, c.states()))
        img = c.image(fs[-1]["seq"])
        bad = img.first_mismatch(PATCH, patch_colour, tolerance=2)
        if bad is None:
            bad = img.first_mismatch((0, 0) + SIZE, RED, tolerance=2, exclude=PATCH)
        if bad is not None:
            raise NotYet("%s frame %d: %r" % (what, fs[-1]["seq"], bad))
        return fs
    return s.wait_for(got, T(15), "the right frame in %s" % what)


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        pipewire.start(s)
        client, win = pipewire.patch_window(s, RED, SIZE, PATCH, BLUE)

        cast = pipewire.Cast(s, window=win["id"])
        c1 = pipewire.Consumer(s, cast.node)
        expect_eq(c1.wait_format(), SIZE + ("BGRx",), "the first consumer's format")
        frame_with(s, c1, 0, RED, "the first consumer")

        # The window stays still; a second consumer joins.
        c2 = pipewire.Consumer(s, cast.node)
        expect_eq(c2.wait_format(), SIZE + ("BGRx",), "the second consumer's format")
        first = frame_with(s, c2, 0, RED, "the second consumer")[0]
        expect(first["damage"] and pipewire.covers(first["damage"], (0, 0) + SIZE),
               "the joining consumer's first frame damage covers the frame: %r"
               % first["damage"])

        # The first consumer saw that frame too: count from after it.
        def c1_has(seq):
            fs = c1.frames()
            for i, f in enumerate(fs):
                if f["seq"] >= seq:
                    return i + 1
            raise NotYet("the first consumer is at %r" % [f["seq"] for f in fs[-3:]])
        newest = c2.frames()[-1]["seq"]
        n1 = s.wait_for(lambda: c1_has(newest), T(10),
                        "the first consumer to see frame %d" % newest)
        n2 = len(c2.frames())

        client.kill(signal.SIGUSR1)
        fs = frame_with(s, c1, n1, BLUE, "the first consumer")
        for f in fs:
            expect_eq(f["damage"], [PATCH], "the first consumer's damage for "
                      "the change (frame %d)" % f["seq"])
        frame_with(s, c2, n2, BLUE, "the second consumer")
        expect(cast.alive(), "the cast ended: %s" % cast.client.log())
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
