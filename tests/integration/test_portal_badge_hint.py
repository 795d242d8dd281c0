#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The sharing badge keeps its "click to stop" hint whatever the app's name.

An app with a short name and then one with a name far too long for the
badge cast the same output: the badge's right end (the hint) is the same
pixels both times and has text in it, while the rest of the badge (what
is shared with whom) differs: the name is what gets shortened.
"""
import os

import harness
import pipewire
import portal
import prompt
from harness import Session, expect, expect_eq

ALLOW = "[screencast]\ndefault = deny\nallow-unidentified = true\n"
HINT_WIDTH = 90  # pixels at the badge's right end that hold the hint
WHITE = (0xff, 0xff, 0xff)


def badge_shot(s):
    found = prompt.wait_badge(s, True, "the sharing badge")
    expect_eq(len(found), 1, "badges")
    x, y, w, h = found[0]
    img = s.screenshot(output=s.output()["name"])
    return img, (x, y, w, h)


def cast_as(s, name):
    entry = s.home / ".local/share/applications/oriel-test-app.desktop"
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text("[Desktop Entry]\nType=Application\nName=%s\nExec=%s\n" % (
        name, os.path.realpath(portal.SYSTEM_PYTHON)))
    c = portal.Client(s)
    expect_eq(len(c.wait_started()), 1, "streams for %s" % name[:20])
    img, box = badge_shot(s)
    c.close()
    prompt.wait_badge(s, False, "the badge to go")
    return img, box


def main():
    with Session(outputs=["1024x768"]) as s:
        s.park_pointer()
        pipewire.start(s)
        portal.start(s, policy=ALLOW)
        short_img, short_box = cast_as(s, "Meet")
        long_img, long_box = cast_as(s, "The Extraordinarily Long Name Of A Meeting "
                                     "Application That Goes On And On Beyond Any Badge")
        expect_eq(long_box, short_box, "the badge's place and size")
        x, y, w, h = short_box
        hint = (x + w - HINT_WIDTH, y, HINT_WIDTH, h)
        expect(list(short_img.pixels(hint)) == list(long_img.pixels(hint)),
               "the badge's right end (its hint) differs with a long app name")
        expect(short_img.count_colour(hint, WHITE, tolerance=80) > 20,
               "no text in the badge's right end")
        body = (x, y, w - HINT_WIDTH, h)
        expect(list(short_img.pixels(body)) != list(long_img.pixels(body)),
               "the badge says the same for both apps")


if __name__ == "__main__":
    harness.run(main)
