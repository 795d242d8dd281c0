#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wmctrl, the command-line EWMH pager, drives X windows under oriel as it
would under any EWMH window manager:
- -m names the window manager "oriel"; -d lists one desktop of the
  output's size; -l lists the X windows with their titles;
- -b add/remove maximized_vert,maximized_horz maximizes over the output
  and restores the old size; maximized_vert alone makes the window as
  tall as the output, keeping its x and width (maximized_horz alone as
  wide, keeping y and height), and _NET_WM_STATE lists just that axis;
  -b add/remove fullscreen covers the output and comes back;
- -e moves a window (_NET_MOVERESIZE_WINDOW) to the given place;
- -a activates a window behind another: it is focused and raised;
- -c closes a window politely (WM_DELETE_WINDOW): the xlogo process exits.
Each effect is checked in oriel's window list and in the pixels.
"""
import re

import harness
from harness import NotYet, Session, expect, expect_eq, geometry, tool

AREA = (0, 0, 1024, 768)
BLUE = (0x30, 0x60, 0xc0)
GREEN = (0x30, 0xa0, 0x50)


def fills(w):
    try:
        harness.fills_area(w, AREA)
        return True
    except NotYet:
        return False


def main():
    with Session(outputs=["1024x768"]) as s:
        wmctrl = lambda *args, check=True: s.x_tool(tool("wmctrl"), *args, check=check)

        def xlogo(title, colour, where):
            hexc = "#" + harness.colour_hex(colour)
            client = s.spawn_x([tool("xlogo"), "-geometry", where, "-bg", hexc,
                                "-fg", hexc, "-title", title], name=title)
            win = s.wait_window(title=title, kind="x11",
                                where=lambda w: w["width"] == 300,
                                what="%s mapped" % title)
            return client, win

        blue, bwin = xlogo("wm blue", BLUE, "300x200+100+100")
        green, gwin = xlogo("wm green", GREEN, "300x200+200+150")

        info = wmctrl("-m").stdout
        expect("Name: oriel" in info, "wmctrl -m: %r" % info)
        desktops = wmctrl("-d").stdout.splitlines()
        expect_eq(len(desktops), 1, "one desktop: %r" % desktops)
        expect("DG: 1024x768" in desktops[0], "the desktop's geometry: %r" % desktops)

        def listed():
            titles = [line.split(None, 3)[-1] for line in wmctrl("-l").stdout.splitlines()]
            if not {"wm blue", "wm green"} <= set(titles):
                raise NotYet("wmctrl -l titles: %r" % titles)
            return titles
        s.wait_for(listed, what="both windows in wmctrl -l")

        # Maximize and back.
        normal = geometry(bwin)
        wmctrl("-r", "wm blue", "-b", "add,maximized_vert,maximized_horz")
        s.wait_window(id=bwin["id"], where=lambda w: w["maximized"] and fills(w),
                      what="wm blue maximized over the output")
        wmctrl("-r", "wm blue", "-b", "remove,maximized_vert,maximized_horz")
        s.wait_window(id=bwin["id"],
                      where=lambda w: not w["maximized"] and geometry(w)[2:] == normal[2:],
                      what="wm blue back at its size")

        # One axis at a time: vertical, then horizontal too, then vertical
        # let go of (horizontal stays), then horizontal.
        def states():
            out = s.x_tool(tool("xprop"), "-name", "wm blue", "_NET_WM_STATE").stdout
            return set(re.findall(r"_NET_WM_STATE_(MAXIMIZED_\w+)", out))

        normal = geometry(s.window_by(id=bwin["id"]))
        # wm green out of the way, so that the pixels show wm blue.
        wmctrl("-r", "wm green", "-e", "0,600,500,-1,-1")
        s.wait_window(id=gwin["id"], where=lambda w: w["x"] >= 600 and w["y"] >= 500,
                      what="wm green moved out of the way")

        def one_axis(axis, w):
            """The frame spans the output on axis, the other way is normal."""
            x, y, width, height = geometry(w)
            if axis == "vert":
                bottom = AREA[3] - (y + height)
                spans = (x, width) == (normal[0], normal[2]) and \
                    0 <= bottom <= 8 and bottom <= y - AREA[1] <= 64
            else:
                side = x - AREA[0]
                spans = (y, height) == (normal[1], normal[3]) and \
                    0 <= side <= 8 and AREA[2] - (x + width) == side
            if w["maximized"] or not spans or states() != {"MAXIMIZED_" + axis.upper()}:
                raise NotYet("%r, _NET_WM_STATE %r" % (geometry(w), states()))

        def wait_one_axis(axis, what):
            def check():
                w = s.window_by(id=bwin["id"])
                one_axis(axis, w)
                return w
            w = s.wait_for(check, what=what)
            exclude = s.park_pointer()
            s.wait_colour(geometry(w), BLUE, exclude=exclude, what=what + ", in blue")

        wmctrl("-r", "wm blue", "-b", "add,maximized_vert")
        wait_one_axis("vert", "wm blue as tall as the output, x and width kept")
        wmctrl("-r", "wm blue", "-b", "add,maximized_horz")
        s.wait_window(id=bwin["id"], where=lambda w: w["maximized"] and fills(w) and
                      states() == {"MAXIMIZED_VERT", "MAXIMIZED_HORZ"},
                      what="wm blue maximized with the second axis")
        wmctrl("-r", "wm blue", "-b", "remove,maximized_vert")
        wait_one_axis("horz", "wm blue as wide as the output, y and height back")
        wmctrl("-r", "wm blue", "-b", "remove,maximized_horz")
        s.wait_window(id=bwin["id"], where=lambda w: geometry(w) == normal and
                      not states(), what="wm blue back where it was")

        # Fullscreen and back, seen in the pixels.
        wmctrl("-r", "wm blue", "-b", "add,fullscreen")
        s.wait_window(id=bwin["id"],
                      where=lambda w: w["fullscreen"] and geometry(w) == AREA,
                      what="wm blue fullscreen")
        exclude = s.park_pointer()
        s.wait_colour(AREA, BLUE, exclude=exclude, what="the output all blue")
        wmctrl("-r", "wm blue", "-b", "remove,fullscreen")
        s.wait_window(id=bwin["id"], where=lambda w: not w["fullscreen"] and
                      geometry(w)[2:] == normal[2:], what="wm blue out of fullscreen")

        # Move: the window's content lands at the given place.
        wmctrl("-r", "wm green", "-e", "0,500,300,-1,-1")
        gwin = s.wait_window(id=gwin["id"], where=lambda w: w["x"] >= 500 and w["y"] >= 300
                             and w["x"] <= 510 and w["y"] <= 330,
                             what="wm green moved near 500,300")
        exclude = s.park_pointer()
        s.wait_colour(geometry(gwin), GREEN, exclude=exclude, what="wm green at its new place")

        # Activate the window behind: focused and on top.
        wmctrl("-r", "wm green", "-e", "0,150,120,-1,-1")
        s.wait_window(id=gwin["id"], where=lambda w: w["x"] < 200, what="wm green back")
        wmctrl("-a", "wm blue")
        bwin = s.wait_window(id=bwin["id"], where=lambda w: w["focused"],
                             what="wm blue focused by wmctrl -a")
        overlap = (max(geometry(bwin)[0], 150) + 5, max(geometry(bwin)[1], 120) + 5, 20, 20)
        s.wait_colour(overlap, BLUE, what="wm blue raised over wm green")

        # Close politely: xlogo handles WM_DELETE_WINDOW and exits.
        wmctrl("-c", "wm green")
        s.wait_no_window(id=gwin["id"])
        s.wait_for(lambda: green.proc.poll() is not None or
                   (_ for _ in ()).throw(NotYet("xlogo still runs")),
                   what="xlogo to exit after wmctrl -c")
        expect(blue.alive(), "the other xlogo still runs")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
