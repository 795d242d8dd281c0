#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""_NET_WM_WINDOW_TYPE drives placement and decoration; docks reserve space.

With oriel-test-xclient on a 1024x768 output:
- a dock with _NET_WM_STRUT_PARTIAL (30 px at the top) sits where it asked,
  undecorated, and takes its strip out of the work area: _NET_WORKAREA
  becomes 0,30,1024,738 and a maximized window starts below it; when the
  dock goes, the work area is whole again;
- a notification goes to the top-right corner of the usable area (below
  the dock), undecorated;
- a dialog and a utility without a parent are centered on the output,
  decorated (_NET_FRAME_EXTENTS 1, 1, 25, 1);
- a splash is centered and undecorated;
- menus, popup and dropdown menus, tooltips and combos are not decorated
  (_NET_FRAME_EXTENTS 0, 0, 0, 0, and no title bar in the screenshot).
"""

import harness
from harness import NotYet, Session, expect, expect_eq, tool
from xclient import spawn

W, H = 1024, 768
TITLE_COLOURS = ((41, 89, 153), (89, 89, 97))  # decoration.c focused, unfocused


def cardinals(s, wid, prop):
    out = s.xprop(wid, prop)
    if "=" not in out:
        raise NotYet("%s: %s" % (prop, out))
    return [int(v) for v in out.split("=", 1)[1].split(",")]


def root_cardinals(s, prop):
    out = s.x_tool(tool("xprop"), "-root", prop).stdout
    if "=" not in out:
        raise NotYet(out)
    return [int(v) for v in out.split("=", 1)[1].split(",")]


def wait_workarea(s, expected, what):
    def check():
        got = root_cardinals(s, "_NET_WORKAREA")
        if got != expected:
            raise NotYet("_NET_WORKAREA %r" % got)
        return got
    s.wait_for(check, what=what)


def wait_extents(s, wid, expected, what):
    def check():
        got = cardinals(s, wid, "_NET_FRAME_EXTENTS")
        if got != expected:
            raise NotYet("_NET_FRAME_EXTENTS %r" % got)
        return got
    s.wait_for(check, what=what)


def no_title_bar(s, win, what):
    if win["y"] < 12:
        return
    img = s.screenshot(region=(win["x"], win["y"] - 12, win["width"], 8))
    for rgb in TITLE_COLOURS:
        n = img.count_colour((0, 0, win["width"], 8), rgb, 6)
        expect(n == 0, "%s has a title bar above it (%d pixels #%s)" % (
            what, n, harness.colour_hex(rgb)))


def main():
    with Session(outputs=["%dx%d" % (W, H)]) as s:
        wait_workarea(s, [0, 0, W, H], "the whole output as work area")

        dock, dock_wid = spawn(s, "dock", "--type", "DOCK", "--position", "0,0",
                               "--size", "%dx30" % W, "--colour", "303030",
                               "--strut-partial", "0,0,30,0,0,0,0,0,0,%d,0,0" % (W - 1))
        d = s.wait_window(title="dock", kind="x11")
        expect_eq((d["x"], d["y"], d["width"], d["height"]), (0, 0, W, 30), "dock geometry")
        wait_extents(s, dock_wid, [0, 0, 0, 0], "dock undecorated")
        wait_workarea(s, [0, 30, W, H - 30], "_NET_WORKAREA without the dock's strip")

        note, note_wid = spawn(s, "note", "--type", "NOTIFICATION", "--size", "200x80")
        n = s.wait_window(title="note", kind="x11")
        expect_eq((n["x"] + n["width"], n["y"]), (W, 30),
                  "notification's top-right corner (usable area's, below the dock)")
        wait_extents(s, note_wid, [0, 0, 0, 0], "notification undecorated")

        for kind in ("DIALOG", "UTILITY"):
            c, wid = spawn(s, kind.lower(), "--type", kind, "--size", "300x200")
            w = s.wait_window(title=kind.lower(), kind="x11")
            wait_extents(s, wid, [1, 1, 25, 1], "%s decorated" % kind)
            # Centered in the usable area 0,30 1024x738, frame included.
            expect(abs(w["x"] - (W - 300) // 2) <= 1, "%s x %d" % (kind, w["x"]))
            expect(abs(w["y"] - (30 + (H - 30 - 200 + 25) // 2)) <= 1,
                   "%s y %d" % (kind, w["y"]))
            c.kill()
            s.wait_no_window(title=kind.lower())

        splash, splash_wid = spawn(s, "splash", "--type", "SPLASH", "--size", "300x200",
                                   "--colour", "ffffff")
        w = s.wait_window(title="splash", kind="x11")
        wait_extents(s, splash_wid, [0, 0, 0, 0], "splash undecorated")
        expect(abs(w["x"] - (W - 300) // 2) <= 1 and
               abs(w["y"] - (30 + (H - 30 - 200) // 2)) <= 1,
               "splash not centered: %d,%d" % (w["x"], w["y"]))
        no_title_bar(s, w, "the splash")
        splash.kill()

        for kind in ("MENU", "POPUP_MENU", "DROPDOWN_MENU", "TOOLTIP", "COMBO"):
            c, wid = spawn(s, kind.lower(), "--type", kind, "--position", "100,300",
                           "--size", "120x60", "--colour", "ffffff")
            w = s.wait_window(title=kind.lower(), kind="x11")
            wait_extents(s, wid, [0, 0, 0, 0], "%s undecorated" % kind)
            expect_eq((w["x"], w["y"]), (100, 300), "%s where it asked" % kind)
            no_title_bar(s, w, kind)
            c.kill()
            s.wait_no_window(title=kind.lower())

        # Maximize respects the dock; its departure gives the space back.
        plain, plain_wid = spawn(s, "plain", "--size", "300x200")
        p = s.wait_window(title="plain", kind="x11")
        wait_extents(s, plain_wid, [1, 1, 25, 1], "a normal window is decorated")
        s.orielctl("maximize", p["id"], "on", json=False)
        s.wait_window(title="plain", where=lambda w: w["maximized"] and
                      (w["y"], w["height"]) == (30 + 25, H - 30 - 25 - 1),
                      what="maximized below the dock")
        dock.kill()
        s.wait_no_window(title="dock")
        wait_workarea(s, [0, 0, W, H], "the whole output once the dock is gone")
        s.wait_window(title="plain", where=lambda w: (w["y"], w["height"]) ==
                      (25, H - 25 - 1), what="maximized over the dock's strip")


if __name__ == "__main__":
    harness.run(main)
