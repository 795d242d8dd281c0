#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An X client maps where it says it is.

xlogo, drawn in one solid colour, asks for 300x200 at +50+60.  Then:
- `orielctl windows` lists it as an x11 window with WM_CLASS class XLogo
  and the title it was given, at 300x200;
- a screenshot shows its colour over exactly the geometry orielctl reports;
- xwininfo (the X client's own view) agrees with that geometry.
"""
import harness
from harness import Session, expect, expect_eq, geometry, tool

COLOUR = (0x12, 0xc4, 0xa7)
TITLE = "oriel xlogo map test"


def main():
    with Session(outputs=["1024x768"]) as s:
        s.spawn_x([tool("xlogo"), "-geometry", "300x200+50+60",
                   "-bg", "#" + harness.colour_hex(COLOUR),
                   "-fg", "#" + harness.colour_hex(COLOUR),
                   "-title", TITLE])
        win = s.wait_window(app_id="XLogo", kind="x11",
                            where=lambda w: (w["width"], w["height"]) == (300, 200),
                            what="xlogo to be listed at 300x200")
        expect_eq(win["title"], TITLE, "title of the xlogo window")
        expect(win["pid"] > 0, "xlogo window has no pid: %r" % win)

        wid = s.wait_x_window("XLogo")
        # xwininfo is the X client's view of its own geometry.
        s.wait_for(lambda: _agrees(s, wid, win["id"]), what="xwininfo and "
                   "orielctl windows to agree on xlogo's geometry")
        win = s.window_by(id=win["id"])

        s.park_pointer()
        s.wait_colour(geometry(win), COLOUR, what="xlogo's colour over its "
                      "reported geometry %r" % (geometry(win),))

        # The whole output, once: the colour is there and only there.
        shot = s.screenshot()
        x, y, w, h = geometry(win)
        outside = sum(shot.count_colour(r, COLOUR, 2) for r in harness.ring((x, y, w, h)))
        expect(outside == 0, "xlogo's colour leaks outside its geometry "
               "(%d pixels on the 1-px ring around it)" % outside)
        if (x, y) != (50, 60):
            harness.log("note: xlogo asked for +50+60 and was placed at +%d+%d" % (x, y))


def _agrees(s, wid, win_id):
    info = s.xwininfo(wid)
    if info["map_state"] != "IsViewable":
        raise harness.NotYet("map state %s" % info["map_state"])
    win = s.window_by(id=win_id)
    expect(win is not None, "xlogo disappeared from the windows list")
    x11 = (info["x"], info["y"], info["width"], info["height"])
    if x11 != geometry(win):
        raise harness.NotYet("xwininfo says %r, orielctl says %r" % (x11, geometry(win)))
    return True


if __name__ == "__main__":
    harness.run(main)
