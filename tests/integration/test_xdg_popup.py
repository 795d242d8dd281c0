#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""xdg_popup menus open where the pointer is and close without harm.

weston-terminal (Debian package weston) opens its context menu, a real
xdg_popup with a grab, when the right button is pressed over it.

- Before: a patch of the terminal around the pointer is all the
  terminal's black background.
- Right button pressed there: the screenshot shows the menu (a block of
  light pixels) under the pointer, inside the terminal window, and the
  windows list still has just the one toplevel (a popup is no window).
- The pointer moved off the terminal and the button released there: that
  ends the popup grab (xdg_popup.popup_done), the client destroys its
  popup, oriel keeps running, and the patch is black again.

Twice, so that a second popup of the same window works too.
"""
import harness
from harness import NotYet, Session, expect, expect_eq, geometry, tool

OUTPUT = (1024, 768)
BLACK = (0, 0, 0)
APP_ID = "org.freedesktop.weston.wayland-terminal"


def main():
    with Session(outputs=["%dx%d" % OUTPUT]) as s:
        s.spawn_wayland([tool("weston-terminal"), "--shell=/bin/sh"],
                        name="weston-terminal")
        win = s.wait_window(app_id=APP_ID, kind="wayland",
                            what="weston-terminal's window")
        x, y, w, h = geometry(win)
        expect(w >= 400 and h >= 300, "weston-terminal's window is only %dx%d" % (w, h))
        expect(x >= 40 and y >= 40, "weston-terminal's window is at %d,%d: no "
               "background left of or above it to release the button on" % (x, y))
        # Well inside the terminal, away from the prompt at its top left.
        point = (x + w // 2 - 60, y + h // 2 - 20)
        patch = (point[0] - 40, point[1] - 40, 320, 180)
        expect(harness.intersect(patch, (x, y, w, h)) == patch,
               "the patch %r is not inside the terminal %r" % (patch, (x, y, w, h)))
        outside = (x // 2, y // 2)  # the background, left of and above it

        s.park_pointer()
        s.wait_for(lambda: _drawn(s, (x, y, w, h)),
                   what="weston-terminal to draw its window")

        for attempt in (1, 2):
            s.pointer_move(*outside)
            s.wait_colour(patch, BLACK, tolerance=0,
                          what="the terminal around %r to be its black "
                          "background (before menu %d)" % (point, attempt))

            s.pointer_move(*point)
            s.orielctl("pointer", "button", "right", "press", json=False)
            box = s.wait_for(lambda: _menu(s, patch, point),
                             what="the context menu (an xdg_popup) to appear "
                             "at %r (menu %d)" % (point, attempt))
            harness.log("menu %d drawn at %r" % (attempt, box))
            expect(harness.intersect(box, (x, y, w, h)) == box,
                   "the menu %r is not inside the terminal window %r" % (
                       box, (x, y, w, h)))
            wins = s.windows()
            expect_eq([wi["id"] for wi in wins], [win["id"]],
                      "windows listed while the menu is open (%s)"
                      % harness.brief_windows(wins))

            s.pointer_move(*outside)
            s.orielctl("pointer", "button", "right", "release", json=False)
            s.wait_colour(patch, BLACK, tolerance=0,
                          what="the menu to be gone after the button was "
                          "released off the terminal (menu %d)" % attempt)
            s.check_alive()
            wins = s.windows()
            expect_eq([wi["id"] for wi in wins], [win["id"]],
                      "windows listed after menu %d closed (%s)" % (
                          attempt, harness.brief_windows(wins)))


def _drawn(s, rect):
    """The window's rectangle has pixels other than black (its frame)."""
    img = s.screenshot(region=rect)
    n = img.count_colour((0, 0, img.width, img.height), BLACK)
    if n == img.width * img.height:
        raise NotYet("the window's rectangle is all black")
    return True


def _menu(s, patch, point):
    """Bounding box (layout coordinates) of what is not black in patch,
    once that looks like a menu under the pointer."""
    img = s.screenshot(region=patch)
    xs, ys = [], []
    for (px, py), rgb in img.pixels((0, 0, img.width, img.height)):
        if rgb != BLACK:
            xs.append(px)
            ys.append(py)
    if len(xs) < 5000:
        raise NotYet("%d pixels around the pointer are not black" % len(xs))
    box = (patch[0] + min(xs), patch[1] + min(ys),
           max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
    if box[2] < 100 or box[3] < 50:
        raise NotYet("what is drawn around the pointer is only %r" % (box,))
    if not harness._inside(box, *point):
        raise NotYet("what is drawn, %r, is not under the pointer %r" % (box, point))
    if abs(box[0] - point[0]) > 24 or abs(box[1] - point[1]) > 24:
        raise NotYet("what is drawn, %r, does not start at the pointer %r" % (
            box, point))
    return box


if __name__ == "__main__":
    harness.run(main)
