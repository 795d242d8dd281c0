#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Alt+Tab window switching, with the list of titles on screen.

Three oriel-test-xclient windows, red, green and blue, mapped in that order
(blue has focus); red is then minimized (WM_CHANGE_STATE Iconic):
- Alt held, Tab: the list appears in the middle of the output, with the
  second most recently focused window (green) highlighted; Tab again
  highlights the third (red, minimized);
- releasing Alt focuses red and restores it: X's _NET_ACTIVE_WINDOW and
  input focus name it, and the list is gone;
- Alt+Tab then Escape leaves the focus where it was;
- a quick Alt+Tab goes back to the window focused before (blue).
"""

import re

import harness
from harness import NotYet, Session, expect, expect_eq
from xclient import spawn, xclient_path

SELECTED = (217, 166, 33)    # switcher.c selected_colour
BACKGROUND = (31, 31, 36)    # switcher.c background_colour
ROW, PAD, WIDTH = 28, 8, 420


def x_focus(s):
    out = s.x_tool(xclient_path(), "focus").stdout
    return re.search(r"focus (0x[0-9a-f]+)", out).group(1)


def active_window(s):
    out = s.x_tool(harness.tool("xprop"), "-root", "_NET_ACTIVE_WINDOW").stdout
    m = re.search(r"window id # (0x[0-9a-f]+)", out)
    return m.group(1) if m else None


def wait_x_focused(s, wid, what):
    def check():
        got = (x_focus(s), active_window(s))
        if got != (wid, wid):
            raise NotYet("X focus, _NET_ACTIVE_WINDOW: %r" % (got,))
        return True
    s.wait_for(check, what=what)


def list_rect(s, rows):
    ox, oy, ow, oh = s.output_rect()
    height = 2 * PAD + rows * ROW
    return (ox + (ow - WIDTH) // 2, oy + (oh - height) // 2, WIDTH, height)


def selected_row(s, rect, rows):
    """The row the highlight is on, or NotYet when no list shows."""
    img = s.screenshot(region=rect)
    if img.count_colour((0, 0, rect[2], PAD), BACKGROUND, 2) < rect[2] * PAD // 2:
        raise NotYet("no list background: %s" % img.describe((0, 0, rect[2], rect[3])))
    counts = [img.count_colour((0, PAD + i * ROW, WIDTH, ROW), SELECTED, 2)
              for i in range(rows)]
    best = max(range(rows), key=lambda i: counts[i])
    if counts[best] < WIDTH * ROW // 3:
        raise NotYet("no highlighted row: %r" % counts)
    return best


def wait_selected(s, rect, rows, row, what):
    def check():
        got = selected_row(s, rect, rows)
        if got != row:
            raise NotYet("row %d is highlighted" % got)
        return True
    s.wait_for(check, what=what)


def main():
    with Session(outputs=["1024x768"]) as s:
        wids = {}
        for title, colour, pos in (("red", "ff0000", "40,60"), ("green", "00ff00", "400,60"),
                                   ("blue", "0000ff", "760,60")):
            _, wids[title] = spawn(s, title, "--colour", colour, "--position", pos,
                                   "--size", "200x120")
            s.wait_window(title=title, where=lambda w: w["focused"])
        s.x_tool(xclient_path(), "send", "WM_CHANGE_STATE", wids["red"], 3)
        s.wait_window(title="red", where=lambda w: w["minimized"], what="red minimized")
        wait_x_focused(s, wids["blue"], "blue focused")
        s.park_pointer()

        rect = list_rect(s, 3)
        s.key_sym("Alt_L", "press")
        s.key_sym("Tab")
        wait_selected(s, rect, 3, 1, "the list with green highlighted")
        s.key_sym("Tab")
        wait_selected(s, rect, 3, 2, "red highlighted after a second Tab")
        expect(s.window_by(title="blue")["focused"], "focus moved before Alt was released")
        s.key_sym("Alt_L", "release")
        wait_x_focused(s, wids["red"], "red focused on Alt release")
        red = s.window_by(title="red")
        expect(red["focused"] and not red["minimized"], "red restored: %r" % red)
        s.wait_for(lambda: s.screenshot(region=rect).count_colour(
            (0, 0, rect[2], rect[3]), BACKGROUND, 2) == 0 or
            (_ for _ in ()).throw(NotYet("list still shown")), what="the list gone")

        # Escape: no change.
        s.key_sym("Alt_L", "press")
        s.key_sym("Tab")
        wait_selected(s, rect, 3, 1, "the list again")
        s.key_sym("Escape")
        s.key_sym("Alt_L", "release")
        s.wait_for(lambda: s.screenshot(region=rect).count_colour(
            (0, 0, rect[2], rect[3]), BACKGROUND, 2) == 0 or
            (_ for _ in ()).throw(NotYet("list still shown")), what="Escape hides the list")
        expect_eq(x_focus(s), wids["red"], "X focus after Escape")
        expect(s.window_by(title="red")["focused"], "oriel focus after Escape")

        # A quick Alt+Tab: back to the window focused before.
        s.key_sym("Alt_L", "press")
        s.key_sym("Tab")
        s.key_sym("Alt_L", "release")
        wait_x_focused(s, wids["blue"], "Alt+Tab back to blue")


if __name__ == "__main__":
    harness.run(main)
