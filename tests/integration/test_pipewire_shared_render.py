#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Casts of the same source share one render per frame.

Two casts of one window and two casts of one region (around the same
window), each with its own consumer. The window toggles a small patch
between blue and red (SIGUSR1, damaging only the patch) several times;
each step is awaited in the frames of all four consumers, with the right
pixels everywhere and damage inside the patch.

oriel -d logs one line per render of a cast source ("pipewire: source
window 5: render 12, ..."; capture/cast_source.h). Rendering is shared:
over the steps a source is rendered at most once for each frame one of
its casts queued (the consumers' header sequence numbers count them), not
once per cast and frame, which would be the sum over both casts.
"""
import re
import signal

import harness
import pipewire
from harness import NotYet, Session, expect, expect_eq, T

RED = (0xd0, 0x20, 0x30)
BLUE = (0x20, 0x40, 0xe0)
SIZE = (200, 150)
POS = (100, 100)
PATCH = (20, 30, 40, 20)  # in the window
REGION = (80, 80, 260, 200)  # around the window, in the layout
STEPS = 8


def renders(s, what):
    return len(re.findall(r"pipewire: source %s: render \d+" % re.escape(what),
                          s.log_text()))


def shift(rect, dx, dy):
    return (rect[0] + dx, rect[1] + dy, rect[2], rect[3])


def shows(s, c, since, patch, colour, what):
    """A frame after index since shows the patch in colour, the rest of the
    window red; returns the frames after since."""
    win = shift((0, 0) + SIZE, patch[0] - PATCH[0], patch[1] - PATCH[1])

    def got():
        expect(c.client.alive(), "%s's consumer exited: %s" % (what, c.client.log()))
        fs = c.frames()[since:]
        if not fs:
            raise NotYet("no new frame in %s" % what)
        img = c.image(fs[-1]["seq"])
        bad = img.first_mismatch(patch, colour, tolerance=2)
        if bad is None:
            bad = img.first_mismatch(win, RED, tolerance=2, exclude=patch)
        if bad is not None:
            raise NotYet("%s frame %d: %r" % (what, fs[-1]["seq"], bad))
        return fs
    return s.wait_for(got, T(10), "%r patch in %s" % (colour, what))


def main():
    with Session(outputs=["640x480"], debug=True) as s:
        s.park_pointer()
        pipewire.start(s)
        client, win = pipewire.patch_window(s, RED, SIZE, PATCH, BLUE)
        s.orielctl("move", win["id"], *POS)
        s.wait_window(id=win["id"], where=lambda w: (w["x"], w["y"]) == POS,
                      what="the window to move")
        s.wait_colour(POS + SIZE, RED)

        casts = [pipewire.Cast(s, window=win["id"]), pipewire.Cast(s, window=win["id"]),
                 pipewire.Cast(s, region=REGION), pipewire.Cast(s, region=REGION)]
        consumers = [pipewire.Consumer(s, c.node) for c in casts]
        sizes = [SIZE, SIZE, REGION[2:], REGION[2:]]
        # Where the patch is in each cast's frames.
        patches = [PATCH, PATCH] + [shift(PATCH, POS[0] - REGION[0],
                                          POS[1] - REGION[1])] * 2
        names = ["window cast 1", "window cast 2", "region cast 1", "region cast 2"]
        for c, size in zip(consumers, sizes):
            expect_eq(c.wait_format(), size + ("BGRx",), "a consumer's format")
        for c, patch, what in zip(consumers, patches, names):
            shows(s, c, 0, patch, RED, what)

        sources = ["window %d" % win["id"], "region %dx%d+%d+%d" % (
            REGION[2], REGION[3], REGION[0], REGION[1])]
        before = [renders(s, w) for w in sources]
        seqs = [c.frames()[-1]["seq"] for c in consumers]
        for step in range(1, STEPS + 1):
            colour = BLUE if step % 2 else RED
            counts = [len(c.frames()) for c in consumers]
            client.kill(signal.SIGUSR1)
            for c, n, patch, what in zip(consumers, counts, patches, names):
                fs = shows(s, c, n, patch, colour, what)
                for f in fs:
                    expect(f["damage"] and all(
                        harness.intersect(r, patch) == tuple(r) for r in f["damage"]),
                        "%s step %d: damage %r outside the patch %r" % (
                            what, step, f["damage"], patch))
        after = [renders(s, w) for w in sources]
        queued = [c.frames()[-1]["seq"] - seq for c, seq in zip(consumers, seqs)]
        harness.log("renders %r -> %r, frames queued %r" % (before, after, queued))
        for i, what in enumerate(sources):
            r = after[i] - before[i]
            q = queued[2 * i:2 * i + 2]
            expect(min(q) >= STEPS, "%s: frames queued %r, fewer than the %d steps" % (
                what, q, STEPS))
            expect(r >= 1, "%s: no render logged over the steps" % what)
            expect(r <= max(q), "%s: %d renders for %r frames queued by its two "
                   "casts: each cast rendered on its own" % (what, r, q))
        for cast in casts:
            expect(cast.alive(), "a cast ended: %s" % cast.client.log())
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
