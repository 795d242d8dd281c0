#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The pointer through xfreerdp: it focuses and raises windows, opens an X
menu, and its wheels and extended buttons reach apps.

Clicks are made with xdotool in xfreerdp's Xvfb, so they travel as RDP
pointer events:
- two xterms overlap, the blue one on top; a click on the uncovered part
  of the white one focuses it, and xfreerdp then shows white where the
  two overlap (it was raised);
- over xev, the vertical wheel both ways, the horizontal wheel both ways
  and the back/forward buttons arrive as X buttons 4, 5, 6, 7, 8 and 9;
- Ctrl and the left button on the xterm open its main menu: a new
  viewable override-redirect window on the session's X display, gone
  once the button is released.
"""
import re
import subprocess

import harness
import rdp
import vnc
from harness import NotYet, Session, TestFailure, expect, tool

BLUE = (0x20, 0x50, 0xc0)


def x_windows(s):
    """The session's viewable override-redirect X windows (ids)."""
    r = s.run_tool([tool("xwininfo"), "-root", "-children"], x=True)
    ids = re.findall(r"^\s+(0x[0-9a-f]+)", r.stdout, re.M)
    found = set()
    for wid in ids:
        info = s.run_tool([tool("xwininfo"), "-id", wid], x=True, check=False).stdout
        if "IsViewable" in info and "Override Redirect State: yes" in info:
            found.add(wid)
    return found


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=rdp.rdp_args(port)) as s:
        s.spawn_x([tool("xterm"), "-bg", "white", "-geometry", "50x12+40+60",
                   "-title", "under"])
        under = s.wait_window(title="under", where=lambda w: w["width"] > 0)
        s.spawn_x([tool("xterm"), "-bg", "#2050c0", "-geometry", "50x12+200+140",
                   "-title", "over"])
        over = s.wait_window(title="over", where=lambda w: w["width"] > 0)
        xev = s.spawn_x(["stdbuf", "-oL", tool("xev"), "-geometry", "240x160+620+420", "-event", "button"],
                        name="xev")
        ev = s.wait_window(title="Event Tester", where=lambda w: w["width"] > 0)
        rdp.wait_listening(s, port)
        s.park_pointer()
        with rdp.client_in_xvfb(s, port, "pointer", "unused",
                                ["/size:1024x768"]) as (xvfb, client):
            # The overlap: inside both, nearer the top-left corner of "over".
            ox = over["x"] + 20
            oy = over["y"] + 20
            expect(under["x"] + under["width"] > ox and under["y"] + under["height"] > oy,
                   "the xterms do not overlap: %r %r" % (under, over))

            def overlap_shows(colour, what):
                def shows():
                    x, y, _, _, _ = client.window()
                    px = xvfb.screen().pixel(x + ox, y + oy)
                    if max(abs(a - b) for a, b in zip(px, colour)) > 40:
                        raise NotYet("xfreerdp shows #%s where the xterms overlap" %
                                     harness.colour_hex(px))
                    return True
                s.wait_for(shows, what=what)
            overlap_shows(BLUE, "xfreerdp to show the blue xterm on top")

            # Click where only "under" is: focused and raised.
            x, y, _, _, wid = client.window()
            xvfb.xdotool("windowfocus", "--sync", wid)
            xvfb.xdotool("mousemove", "--sync", x + under["x"] + 30, y + under["y"] + 30)
            xvfb.xdotool("click", "1")
            s.wait_window(id=under["id"], where=lambda w: w["focused"],
                          what="the white xterm focused by a click through RDP")
            overlap_shows((255, 255, 255), "the white xterm raised over the blue one")

            # Wheels and the extended buttons, over xev.
            xvfb.xdotool("mousemove", "--sync", x + ev["x"] + ev["width"] // 2,
                         y + ev["y"] + ev["height"] // 2)
            for button in (4, 5, 6, 7, 8, 9):
                xvfb.xdotool("click", button)

            def pressed():
                got = [int(b) for b in re.findall(r"ButtonPress event.*?button (\d+)",
                                                  xev.log(), re.S)]
                if not xev.alive():
                    raise TestFailure("xev exited: %s" % xev.log())
                if got[-6:] != [4, 5, 6, 7, 8, 9]:
                    raise NotYet("xev got buttons %r" % got)
                return True
            s.wait_for(pressed, what="xev to get the wheels and buttons 8 and 9")

            # Ctrl + left button: xterm's main menu, an override-redirect window.
            xvfb.xdotool("mousemove", "--sync", x + under["x"] + 30, y + under["y"] + 30)
            before = x_windows(s)
            xvfb.xdotool("keydown", "ctrl", "mousedown", "1")
            try:
                def menu():
                    new = x_windows(s) - before
                    if not new:
                        raise NotYet("no new override-redirect window")
                    return new
                s.wait_for(menu, what="xterm's menu to open on Ctrl+click through RDP")
            finally:
                xvfb.xdotool("mouseup", "1", "keyup", "ctrl")

            def closed():
                if x_windows(s) - before:
                    raise NotYet("the menu is still open")
                return True
            s.wait_for(closed, what="xterm's menu to close when the button is released")

if __name__ == "__main__":
    harness.run(main)
