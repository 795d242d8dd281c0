#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""grim reads the screen only when the policy names it.

wlr-screencopy is a privileged global: without a [privileged] entry grim
finds no screencopy manager and fails with its own message; with
`--privileged screencopy=/usr/bin/grim` it writes a PNG of the output,
and a known-colour window shows there at its place.  A copy of grim at
another path stays refused, since the policy names executables.
"""
import shutil

import harness
from harness import NotYet, Session, expect, expect_eq, geometry, read_png, tool

COLOUR = (0x30, 0xa0, 0x50)
SIZE = (200, 150)
POS = (120, 90)
REFUSAL = "compositor doesn't support wlr-screencopy"


def grim_refused(s, grim, what):
    path = s.tmp / "refused.png"
    res = s.run_tool([grim, str(path)], check=False)
    expect(res.returncode != 0, "%s: grim succeeded without permission" % what)
    expect(REFUSAL in res.stderr,
           "%s: grim's message is not the missing-protocol one: %r"
           % (what, res.stderr))
    expect(not path.exists(), "%s: grim wrote %s anyway" % (what, path))


def main():
    grim = tool("grim")
    expect_eq(grim, "/usr/bin/grim", "grim's path, as the policy names it")

    with Session(outputs=["640x480"]) as s:
        grim_refused(s, grim, "default policy")

    with Session(outputs=["640x480"],
                 args=["--privileged", "screencopy=/usr/bin/grim"]) as s:
        # The policy is by executable: the same program elsewhere is refused.
        copy = s.tmp / "grim"
        shutil.copy(grim, copy)
        grim_refused(s, str(copy), "a copy of grim")

        s.colour_window_at(COLOUR, SIZE, POS, "screencopy", "org.oriel.test.grim")
        exclude = s.park_pointer()
        rect = POS + SIZE
        s.wait_colour(rect, COLOUR, tolerance=0, exclude=exclude)

        path = s.tmp / "grim.png"

        def captured():
            res = s.run_tool([grim, str(path)], check=False)
            if res.returncode != 0:
                raise harness.TestFailure("grim failed: %s" % res.stderr)
            img = read_png(path)
            expect_eq((img.width, img.height), (640, 480), "grim's image size")
            n = img.count_colour(rect, COLOUR, 0, exclude=exclude)
            if n != SIZE[0] * SIZE[1]:
                raise NotYet("window area: %s" % img.describe(rect))
            return img
        img = s.wait_for(captured, what="grim to capture the window")
        total = img.count_colour((0, 0, img.width, img.height), COLOUR, 0)
        expect_eq(total, SIZE[0] * SIZE[1], "pixels of the colour in grim's image")
        win = s.window_by(app_id="org.oriel.test.grim")
        expect_eq(geometry(win), rect, "window geometry")


if __name__ == "__main__":
    harness.run(main)
