#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A malformed Wayland request hurts only the client that sent it.

With a colour client on screen, oriel-test-malformed sends bad requests
(an empty wl_shm pool; a 0x0 xdg_positioner).  Each time it must get a
protocol error and be disconnected, while oriel and the colour client go
on: the client is still listed and on screen, and a new client can still
map and be presented.
"""
import harness
from harness import Session, exe, expect, expect_eq, geometry

FIRST = (0xd0, 0x20, 0x40)
SECOND = (0x30, 0x50, 0xe0)
KINDS = [("shm-pool", "protocol-error wl_shm 1"),
         ("positioner", "protocol-error xdg_positioner 0")]


def main():
    with Session(outputs=["1024x768"]) as s:
        first, w1 = s.colour_window_at(FIRST, (300, 200), (100, 100), "first",
                                       "org.oriel.test.first")

        for kind, expected in KINDS:
            bad = s.spawn_wayland([exe("ORIEL_TEST_MALFORMED"), "--kind", kind],
                                  name="malformed-" + kind)
            status = bad.wait(timeout=15)
            output = bad.log()
            expect_eq(status, 0, "oriel-test-malformed --kind %s exit status "
                      "(output: %r)" % (kind, output))
            expect(expected in output.splitlines(),
                   "oriel-test-malformed --kind %s: expected %r, got %r"
                   % (kind, expected, output))

            s.check_alive()
            expect(first.alive(), "the well-behaved client died (status %s)"
                   % first.proc.returncode)
            now = s.window_by(id=w1["id"])
            expect(now is not None, "the well-behaved client is no longer listed")
            expect_eq(geometry(now), geometry(w1), "well-behaved client's geometry")
            s.park_pointer()
            s.wait_colour(geometry(w1), FIRST,
                          what="the well-behaved client to stay on screen")

        second = s.spawn_colour(SECOND, size=(200, 150), title="second",
                                app_id="org.oriel.test.second")
        second.wait_ready(size=(200, 150))
        w2 = s.wait_window(app_id="org.oriel.test.second")
        s.orielctl("move", w2["id"], 600, 400)
        w2 = s.wait_window(id=w2["id"], where=lambda w: (w["x"], w["y"]) == (600, 400),
                           what="the second client to move to 600,400")
        s.park_pointer()
        s.wait_colour(geometry(w2), SECOND, what="the second client on screen")
        s.wait_colour(geometry(w1), FIRST, what="the first client still on screen")


if __name__ == "__main__":
    harness.run(main)
