#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Resizing the headless output at run time.

- `orielctl output-size NAME 1024x768`: `orielctl outputs` reports the new
  mode, and X clients see it too (xrandr's current screen size and
  xwininfo -root).
- In a --kiosk session the window follows: the client is given and
  presents the new size, the windows list has it covering the output, and
  the screenshot is the new size and all the client's colour.
"""
import re

import harness
from harness import NotYet, Session, expect_eq, geometry, tool

COLOUR = (0x30, 0x50, 0xe0)


def main():
    with Session(outputs=["1280x720"]) as s:
        name = s.output()["name"]
        s.orielctl("output-size", name, "1024x768")
        s.wait_for(lambda: _output_is(s, name, 1024, 768),
                   what="orielctl outputs to report 1024x768")
        s.wait_for(lambda: _xrandr_is(s, 1024, 768),
                   what="xrandr to report the screen at 1024 x 768")
        root = s.xwininfo()
        expect_eq((root["width"], root["height"]), (1024, 768),
                  "xwininfo -root size")
        shot = s.screenshot()
        expect_eq((shot.width, shot.height), (1024, 768), "screenshot size")

    with Session(outputs=["1280x720"], kiosk=True) as s:
        name = s.output()["name"]
        c = s.spawn_colour(COLOUR, size=(300, 200), title="kiosk",
                           app_id="org.oriel.test.kiosk")
        c.wait_ready(size=(1280, 720))
        win = s.wait_window(app_id="org.oriel.test.kiosk",
                            where=lambda w: geometry(w) == (0, 0, 1280, 720),
                            what="the kiosk window to cover the 1280x720 output")

        s.orielctl("output-size", name, "1024x768")
        s.wait_for(lambda: _output_is(s, name, 1024, 768),
                   what="orielctl outputs to report 1024x768")
        c.wait_ready(size=(1024, 768))
        s.wait_window(id=win["id"], where=lambda w: geometry(w) == (0, 0, 1024, 768),
                      what="the kiosk window to cover the 1024x768 output")
        exclude = s.park_pointer()
        shot = s.wait_colour((0, 0, 1024, 768), COLOUR, exclude=exclude,
                             what="the resized output to show only the kiosk client")
        full = s.screenshot()
        expect_eq((full.width, full.height), (1024, 768), "screenshot size")


def _output_is(s, name, w, h):
    o = s.output(name)
    if (o["width"], o["height"]) != (w, h):
        raise NotYet("output is %dx%d" % (o["width"], o["height"]))
    return True


def _xrandr_is(s, w, h):
    out = s.x_tool(tool("xrandr")).stdout
    m = re.search(r"current (\d+) x (\d+)", out)
    if not m:
        raise NotYet("cannot parse xrandr: %r" % out[:200])
    if (int(m.group(1)), int(m.group(2))) != (w, h):
        raise NotYet(out.splitlines()[0])
    return True


if __name__ == "__main__":
    harness.run(main)
