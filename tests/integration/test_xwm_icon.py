#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""_NET_WM_ICON in the title bar, left of the title.

With oriel-test-xclient (exact properties):
- a window with a 48x48 icon and a 16x16 one shows the 16x16 one (the best
  fit for the title bar) at the bar's left end;
- an icon set after mapping (xprop, as an app changing its icon) replaces it;
- malformed icons (huge sides, fewer pixels than claimed, a zero side, a
  lone width) are ignored: those windows map, get a plain title bar, and
  oriel goes on.
"""

import harness
from harness import NotYet, Session, expect, tool
from xclient import spawn

ICON = (0x20, 0xc0, 0x40)
DECOY = (0xdf, 0x3f, 0xbf)      # the 48x48 icon: ICON's complement
CHANGED = (0xff, 0x00, 0x00)
TITLE = 24                      # compositor/decoration.h DECORATION_TITLE_HEIGHT
ICON_SIZE, MARGIN = 16, 4       # DECORATION_ICON_SIZE, DECORATION_ICON_MARGIN
FOCUSED = (41, 89, 153)         # decoration.c title_focused


def icon_rect(win):
    top = win["y"] - TITLE + (TITLE - ICON_SIZE) // 2
    return (win["x"] + MARGIN, top, ICON_SIZE, ICON_SIZE)


def wait_icon(s, title, rgb, what):
    def check():
        win = s.window_by(title=title)
        expect(win is not None, "%s is not listed" % title)
        rect = icon_rect(win)
        img = s.screenshot(region=rect)
        n = img.count_colour((0, 0, rect[2], rect[3]), rgb, 2)
        if n != ICON_SIZE * ICON_SIZE:
            raise NotYet("icon of %s: %d of %d pixels #%s; %s" % (
                title, n, ICON_SIZE * ICON_SIZE, harness.colour_hex(rgb),
                img.describe((0, 0, rect[2], rect[3]))))
        return True
    s.wait_for(check, what=what)


def wait_no_icon(s, title, what):
    """Where an icon would be: the focused bar's colour and its title's
    white text (which starts further left without an icon), nothing else."""
    def check():
        win = s.window_by(title=title)
        expect(win is not None, "%s is not listed" % title)
        rect = icon_rect(win)
        img = s.screenshot(region=rect)
        area = (0, 0, rect[2], rect[3])
        bar = img.count_colour(area, FOCUSED, 2)
        others = sum(img.count_colour(area, rgb, 2) for rgb in (ICON, DECOY, CHANGED))
        if others or bar < ICON_SIZE * ICON_SIZE // 2:
            raise NotYet("where %s's icon would be: %s" % (title, img.describe(area)))
        return True
    s.wait_for(check, what=what)


def main():
    with Session(outputs=["1024x768"]) as s:
        _, wid = spawn(s, "icon-app", "--size", "300x200", "--position", "100,100",
                       "--icon", harness.colour_hex(ICON))
        s.wait_window(title="icon-app", kind="x11")
        wait_icon(s, "icon-app", ICON, "the 16x16 icon in the title bar")

        # An app changes its icon: a 2x2 red one, scaled up.
        red = 0xffff0000
        values = ",".join(str(v) for v in [2, 2, red, red, red, red])
        s.x_tool(tool("xprop"), "-id", wid, "-f", "_NET_WM_ICON", "32c",
                 "-set", "_NET_WM_ICON", values)
        wait_icon(s, "icon-app", CHANGED, "the changed icon in the title bar")

        # Malformed icons: no icon, a plain title bar, oriel goes on.
        malformed = {
            "huge": "0xffffffff,0xffffffff,1,2,3",
            "short": "16,16,1,2,3",
            "zero": "0,5,1,2",
            "lone": "16",
        }
        for i, (name, raw) in enumerate(malformed.items()):
            title = "bad-" + name
            spawn(s, title, "--size", "200x100", "--position",
                  "%d,%d" % (450, 60 + i * 150), "--icon-raw", raw)
            win = s.wait_window(title=title, kind="x11",
                                where=lambda w: w["focused"])
            wait_no_icon(s, title, "%s: the title bar without an icon" % title)
            s.check_alive()
        # The first window still shows its icon, unfocused now.
        wait_icon(s, "icon-app", CHANGED, "the icon after the others came")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
