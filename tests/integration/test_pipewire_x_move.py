#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An X window that its client moves is shown moved together with what the
client drew in the same breath, never a frame apart.

oriel-test-xmove moves an override-redirect window 4 px a step and, in the
same batch of requests, paints a second window with the step's colour, 60
steps 20 ms apart (a drag icon, or an app dragging its own window). An
output cast records every frame. In each, the moved window's place tells
one step and the marker's colour another: they must agree. Without the
output waiting for the window's new contents after a move, the frame drawn
at the move shows the marker of the step before (most frames did).
"""
import signal

import harness
import pipewire
from harness import NotYet, Session, expect

STEPS = 60
ORIGIN = (40, 200)
MOVER = (0x20, 0x60, 0xa0)
MOVER_ROW = ORIGIN[1] + 60
# A busy machine may now and then delay Xwayland's commit past the wait.
MOST_TORN = STEPS // 10


def mover_step(img):
    """The step that the moved window's left edge stands for, or None."""
    for x in range(ORIGIN[0], img.width):
        if img.pixel(x, MOVER_ROW) == MOVER:
            step, rest = divmod(x - ORIGIN[0], 4)
            return step if rest == 0 else None
    return None


def marker_step(img):
    """The step the marker's colour stands for, or None."""
    r, g, b = img.pixel(32, 32)
    return r if g == 255 - r and b == 0x40 else (0 if (r, g, b) == (0, 0, 0) else None)


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        pipewire.start(s)
        mover = s.spawn_x([harness.exe("ORIEL_TEST_XMOVE"), "--steps", STEPS,
                           "--interval-ms", 20, "--origin", "%d,%d" % ORIGIN])

        def log_has(word):
            def has():
                if ("\n%s\n" % word) in "\n" + mover.log():
                    return True
                if not mover.alive():
                    raise harness.TestFailure("oriel-test-xmove: %s" % mover.log())
                raise NotYet("no %r from oriel-test-xmove yet" % word)
            return has
        s.wait_for(log_has("ready"), harness.T(15), "the X windows")

        cast = pipewire.Cast(s, s.output()["name"], cursor="hidden")
        c = pipewire.Consumer(s, cast.node)
        c.wait_format()

        def both_shown():
            f = c.wait_frames(1)[-1]
            img = c.image(f["seq"])
            if (mover_step(img), marker_step(img)) != (0, 0):
                raise NotYet("frame %d: %r" % (f["seq"], (mover_step(img), marker_step(img))))
            return len(c.frames())
        start = s.wait_for(both_shown, harness.T(15), "both X windows in the cast")

        mover.proc.send_signal(signal.SIGUSR1)
        s.wait_for(log_has("done"), harness.T(30), "the steps")

        def last_step_shown():
            f = c.frames()[-1]
            if mover_step(c.image(f["seq"])) != STEPS:
                raise NotYet("frame %d is not the last step" % f["seq"])
            return c.frames()[start:]
        frames = s.wait_for(last_step_shown, harness.T(15), "the last step in the cast")

        seen, torn = set(), []
        for f in frames:
            img = c.image(f["seq"])
            moved, marked = mover_step(img), marker_step(img)
            expect(moved is not None and marked is not None,
                   "frame %d: neither a step's place nor its colour (%r, %r)" % (
                       f["seq"], moved, marked))
            if moved != marked:
                torn.append((f["seq"], moved, marked))
            seen.add(moved)
        harness.log("%d frames for %d steps, %d steps seen, %d torn: %r" % (
            len(frames), STEPS, len(seen), len(torn), torn[:5]))
        expect(len(seen) >= STEPS // 2, "only %d of %d steps reached the cast" % (
            len(seen), STEPS))
        expect(len(torn) <= MOST_TORN,
               "%d frames showed the window moved but its neighbour a step behind "
               "(frame, place, colour): %r" % (len(torn), torn[:10]))
        mover.kill(signal.SIGUSR1)
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
