#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""_NET_WM_STATE ABOVE, BELOW, STICKY, SKIP_TASKBAR and SKIP_PAGER.

Two overlapping oriel-test-xclient windows, red under green:
- green asks for ABOVE, STICKY and SKIP_PAGER before mapping: they show in
  its _NET_WM_STATE (and stay there when wlroots' XWM rewrites the property
  on focus changes), _NET_WM_DESKTOP is 0xFFFFFFFF, and clicking red does
  not bring red over green, on the screen or in _NET_CLIENT_LIST_STACKING;
- a _NET_WM_STATE remove of ABOVE lets a click raise red over green;
- a toggle of BELOW on red puts it under green, and it stays there when
  clicked (focused, but below), in X's stacking order too;
- _NET_WM_DESKTOP 0 ends STICKY; SKIP_TASKBAR is added and shown.
"""

import re

import harness
from harness import NotYet, Session, expect, intersect
from xclient import spawn, xclient_path

RED = (255, 0, 0)
GREEN = (0, 255, 0)


def states(s, wid):
    out = s.xprop(wid, "_NET_WM_STATE")
    return set(re.findall(r"_NET_WM_STATE_([A-Z_]+)", out))


def wait_states(s, wid, present=(), absent=(), what=""):
    def check():
        got = states(s, wid)
        if not set(present) <= got or got & set(absent):
            raise NotYet("_NET_WM_STATE is %s" % sorted(got))
        return True
    s.wait_for(check, what="%s: _NET_WM_STATE with %s, without %s" % (
        what, present, absent))


def stacking(s):
    out = s.x_tool(harness.tool("xprop"), "-root", "_NET_CLIENT_LIST_STACKING").stdout
    return [int(w, 16) for w in re.findall(r"0x[0-9a-f]+", out)]


def wait_stacked(s, lower, upper, what):
    def check():
        order = stacking(s)
        if int(lower, 16) not in order or int(upper, 16) not in order:
            raise NotYet("stacking %r" % order)
        if order.index(int(lower, 16)) > order.index(int(upper, 16)):
            raise NotYet("stacking %r" % [hex(w) for w in order])
        return True
    s.wait_for(check, what=what)


def send(s, *args):
    s.x_tool(xclient_path(), "send", *[str(a) for a in args])


def main():
    with Session(outputs=["1024x768"]) as s:
        _, red_wid = spawn(s, "red", "--colour", "ff0000", "--position", "100,100",
                           "--size", "300x200")
        red = s.wait_window(title="red", where=lambda w: w["focused"])
        _, green_wid = spawn(s, "green", "--colour", "00ff00", "--position",
                             "250,200", "--size", "300x200",
                             "--state", "ABOVE,STICKY,SKIP_PAGER")
        green = s.wait_window(title="green", where=lambda w: w["focused"])
        overlap = intersect(harness.geometry(red), harness.geometry(green))
        expect(overlap[2] > 40 and overlap[3] > 40, "no overlap: %r" % (overlap,))
        overlap = (overlap[0] + 10, overlap[1] + 10, overlap[2] - 20, overlap[3] - 20)
        red_spot = (red["x"] + 20, red["y"] + 20)

        # Initial states, kept through wlroots' rewrite on the focus change.
        s.click(*red_spot)
        s.wait_window(title="red", where=lambda w: w["focused"], what="red focused")
        wait_states(s, green_wid, present=("ABOVE", "STICKY", "SKIP_PAGER"),
                    what="green's initial states")
        expect("4294967295" in s.xprop(green_wid, "_NET_WM_DESKTOP"),
               "sticky green's _NET_WM_DESKTOP: %s" % s.xprop(green_wid, "_NET_WM_DESKTOP"))
        s.wait_colour(overlap, GREEN, what="ABOVE green over focused red")
        wait_stacked(s, red_wid, green_wid, "green above red in X")

        # Remove ABOVE: a click raises red again.
        send(s, "_NET_WM_STATE", green_wid, 0, "_NET_WM_STATE_ABOVE", 0, 1)
        wait_states(s, green_wid, present=("STICKY",), absent=("ABOVE",),
                    what="ABOVE removed")
        s.click(*red_spot)
        s.wait_colour(overlap, RED, what="red raised over green once not ABOVE")
        wait_stacked(s, green_wid, red_wid, "red above green in X")

        # Toggle BELOW on red: under green, even when focused.
        send(s, "_NET_WM_STATE", red_wid, 2, "_NET_WM_STATE_BELOW", 0, 1)
        wait_states(s, red_wid, present=("BELOW",), what="BELOW toggled on")
        s.wait_colour(overlap, GREEN, what="BELOW red under green")
        s.click(*(green["x"] + green["width"] - 20, green["y"] + green["height"] - 20))
        s.wait_window(title="green", where=lambda w: w["focused"], what="green focused")
        s.click(*red_spot)
        s.wait_window(title="red", where=lambda w: w["focused"], what="red focused")
        s.wait_colour(overlap, GREEN, what="focused BELOW red still under green")
        wait_stacked(s, red_wid, green_wid, "focused BELOW red under green in X")
        wait_states(s, red_wid, present=("BELOW",), what="BELOW after focus")

        # _NET_WM_DESKTOP 0 ends STICKY; SKIP_TASKBAR shows.
        send(s, "_NET_WM_DESKTOP", green_wid, 0, 1)
        wait_states(s, green_wid, absent=("STICKY",), what="not sticky on desktop 0")
        expect("= 0" in s.xprop(green_wid, "_NET_WM_DESKTOP"),
               "green's _NET_WM_DESKTOP: %s" % s.xprop(green_wid, "_NET_WM_DESKTOP"))
        send(s, "_NET_WM_STATE", green_wid, 1, "_NET_WM_STATE_SKIP_TASKBAR", 0, 1)
        wait_states(s, green_wid, present=("SKIP_TASKBAR", "SKIP_PAGER"),
                    what="SKIP_TASKBAR added")


if __name__ == "__main__":
    harness.run(main)
