#!/usr/bin/env python3
"""wmctrl, the command-line EWMH pager, drives X windows under oriel as it
would under any EWMH window manager:
- -m names the window manager "oriel"; -d lists one desktop of the
  output's size; -l lists the X windows with their titles;
- -b add/remove maximized_vert,maximized_horz maximizes over the output
  and restores the old size; -b add/remove fullscreen covers the output
  and comes back;
- -e moves a window (_NET_MOVERESIZE_WINDOW) to the given place;
- -a activates a window behind another: it is focused and raised;
- -c closes a window politely (WM_DELETE_WINDOW): the xlogo process exits.
Each effect is checked in oriel's window list and in the pixels.
"""
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
