#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The X root window tells EWMH clients who the window manager is.

- _NET_SUPPORTING_WM_CHECK names a window whose _NET_WM_NAME is "oriel"
  and which points at itself;
- _NET_SUPPORTED lists exactly what is implemented;
- one desktop: _NET_NUMBER_OF_DESKTOPS 1, _NET_CURRENT_DESKTOP 0,
  _NET_DESKTOP_GEOMETRY the layout's size;
- _NET_WORKAREA is the output minus a layer-shell panel, and follows the
  panel going away and the output changing size;
- a managed window gets _NET_WM_DESKTOP 0.
"""
import re

import harness
from harness import NotYet, Session, expect, expect_eq, tool

SUPPORTED = {
    "_NET_SUPPORTED", "_NET_SUPPORTING_WM_CHECK", "_NET_WM_NAME",
    "_NET_NUMBER_OF_DESKTOPS", "_NET_CURRENT_DESKTOP",
    "_NET_DESKTOP_GEOMETRY", "_NET_DESKTOP_VIEWPORT", "_NET_WORKAREA",
    "_NET_WM_DESKTOP", "_NET_WM_STATE", "_NET_ACTIVE_WINDOW",
    "_NET_WM_MOVERESIZE", "_NET_WM_STATE_FOCUSED", "_NET_WM_STATE_MODAL",
    "_NET_WM_STATE_FULLSCREEN", "_NET_WM_STATE_MAXIMIZED_VERT",
    "_NET_WM_STATE_MAXIMIZED_HORZ", "_NET_WM_STATE_HIDDEN",
    "_NET_CLIENT_LIST", "_NET_CLIENT_LIST_STACKING",
    "_NET_MOVERESIZE_WINDOW", "_NET_CLOSE_WINDOW", "_NET_REQUEST_FRAME_EXTENTS",
    "_NET_FRAME_EXTENTS", "_NET_WM_ALLOWED_ACTIONS", "_NET_WM_USER_TIME",
    "_NET_WM_STATE_DEMANDS_ATTENTION", "_NET_WM_STATE_ABOVE", "_NET_WM_STATE_BELOW",
    "_NET_WM_STATE_STICKY", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER",
    "_NET_WM_STRUT", "_NET_WM_STRUT_PARTIAL",
    "_NET_WM_WINDOW_TYPE", "_NET_WM_PING", "_NET_WM_PID", "_NET_WM_ICON",
    "_NET_WM_SYNC_REQUEST",
    "_NET_WM_WINDOW_TYPE_NORMAL", "_NET_WM_WINDOW_TYPE_DIALOG",
    "_NET_WM_WINDOW_TYPE_UTILITY", "_NET_WM_WINDOW_TYPE_SPLASH",
    "_NET_WM_WINDOW_TYPE_NOTIFICATION", "_NET_WM_WINDOW_TYPE_DOCK",
    "_NET_WM_WINDOW_TYPE_MENU", "_NET_WM_WINDOW_TYPE_POPUP_MENU",
    "_NET_WM_WINDOW_TYPE_DROPDOWN_MENU", "_NET_WM_WINDOW_TYPE_TOOLTIP",
    "_NET_WM_WINDOW_TYPE_COMBO", "_NET_WM_WINDOW_TYPE_TOOLBAR",
    "_NET_WM_WINDOW_TYPE_DESKTOP", "_NET_WM_ACTION_MOVE", "_NET_WM_ACTION_RESIZE",
    "_NET_WM_ACTION_MINIMIZE", "_NET_WM_ACTION_MAXIMIZE_HORZ",
    "_NET_WM_ACTION_MAXIMIZE_VERT", "_NET_WM_ACTION_FULLSCREEN",
    "_NET_WM_ACTION_CLOSE",
}
PANEL_HEIGHT = 40


def root_prop(s, name):
    out = s.x_tool(tool("xprop"), "-root", name).stdout.strip()
    if "not found" in out or "no such atom" in out:
        raise NotYet(out)
    return out


def cardinals(s, name):
    out = root_prop(s, name)
    return [int(v) for v in re.findall(r"-?\d+", out.split("=", 1)[1])]


def wait_cardinals(s, name, expected):
    def check():
        got = cardinals(s, name)
        if got != list(expected):
            raise NotYet("%s is %r" % (name, got))
        return True
    s.wait_for(check, what="%s to be %r" % (name, list(expected)))


def main():
    with Session(outputs=["1024x768"]) as s:
        def check_window():
            out = root_prop(s, "_NET_SUPPORTING_WM_CHECK")
            m = re.search(r"window id # (0x[0-9a-f]+)", out)
            if not m:
                raise NotYet(out)
            wid = int(m.group(1), 16)
            name = s.xprop(wid, "_NET_WM_NAME")
            if '"oriel"' not in name:
                raise NotYet("check window's name: %s" % name)
            return wid
        wid = s.wait_for(check_window, what="_NET_SUPPORTING_WM_CHECK to name oriel")
        own = s.xprop(wid, "_NET_SUPPORTING_WM_CHECK")
        expect("0x%x" % wid in own, "check window does not point at itself: %s" % own)

        out = root_prop(s, "_NET_SUPPORTED")
        atoms = set(a.strip() for a in out.split("=", 1)[1].split(","))
        expect_eq(atoms, SUPPORTED, "_NET_SUPPORTED")

        wait_cardinals(s, "_NET_NUMBER_OF_DESKTOPS", [1])
        wait_cardinals(s, "_NET_CURRENT_DESKTOP", [0])
        wait_cardinals(s, "_NET_DESKTOP_GEOMETRY", [1024, 768])
        wait_cardinals(s, "_NET_WORKAREA", [0, 0, 1024, 768])

        panel = s.spawn_panel(PANEL_HEIGHT, (0x20, 0x30, 0x40))
        panel.wait_ready()
        wait_cardinals(s, "_NET_WORKAREA", [0, PANEL_HEIGHT, 1024, 768 - PANEL_HEIGHT])
        panel.kill()
        wait_cardinals(s, "_NET_WORKAREA", [0, 0, 1024, 768])

        s.orielctl("output-size", s.output()["name"], "800x600", json=False)
        wait_cardinals(s, "_NET_DESKTOP_GEOMETRY", [800, 600])
        wait_cardinals(s, "_NET_WORKAREA", [0, 0, 800, 600])

        s.spawn_x([tool("xlogo"), "-geometry", "200x100"])
        xid = s.wait_x_window("XLogo")

        def desktop():
            out = s.xprop(xid, "_NET_WM_DESKTOP")
            if not re.search(r"=\s*0$", out):
                raise NotYet(out)
            return True
        s.wait_for(desktop, what="xlogo's _NET_WM_DESKTOP to be 0")


if __name__ == "__main__":
    harness.run(main)
