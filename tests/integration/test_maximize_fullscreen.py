#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Maximize and fullscreen change what the window covers.

- A colour client that asks to be maximized fills the output: its frame
  (content plus any server-side decoration) covers the output exactly, the
  client draws at the size it was given, and the windows list says so.
- A colour client that asks for fullscreen covers exactly the output, and
  the screenshot is its colour everywhere.
- An X window (xlogo) maximized and made fullscreen through orielctl:
  the windows list, xwininfo and _NET_WM_STATE (what the X app itself sees)
  agree, and it returns to its size when both are switched off.
"""
import harness
from harness import NotYet, Session, expect, expect_eq, geometry, tool

OUTPUT = (1024, 768)
MAX_COLOUR = (0x30, 0x50, 0xe0)
FS_COLOUR = (0xd0, 0x20, 0x40)
X_COLOUR = (0x12, 0xc4, 0xa7)


def main():
    with Session(outputs=["%dx%d" % OUTPUT]) as s:
        area = s.output_rect()
        expect_eq(area[2:], OUTPUT, "output size")

        # -- a Wayland client that starts maximized
        c = s.spawn_colour(MAX_COLOUR, size=(200, 150), title="max",
                           app_id="org.oriel.test.max", maximize=True)
        win = s.wait_window(app_id="org.oriel.test.max",
                            where=lambda w: w["maximized"] and _fills(w, area),
                            what="the maximized client to fill the output")
        top, side = harness.fills_area(win, area)
        harness.log("maximized frame insets: top %d, sides %d" % (top, side))
        c.wait_ready(size=(win["width"], win["height"]))
        exclude = s.park_pointer()
        s.wait_colour(geometry(win), MAX_COLOUR, exclude=exclude,
                      what="the maximized client's colour over its geometry")
        _close(s, c, win)

        # -- a Wayland client that starts fullscreen
        c = s.spawn_colour(FS_COLOUR, size=(200, 150), title="fs",
                           app_id="org.oriel.test.fs", fullscreen=True)
        win = s.wait_window(app_id="org.oriel.test.fs",
                            where=lambda w: w["fullscreen"] and geometry(w) == area,
                            what="the fullscreen client to cover the output %r" % (area,))
        c.wait_ready(size=OUTPUT)
        exclude = s.park_pointer()
        s.wait_colour(area, FS_COLOUR, exclude=exclude,
                      what="the whole output to show the fullscreen client")
        _close(s, c, win)

        # -- an X window, through orielctl
        s.spawn_x([tool("xlogo"), "-geometry", "300x200+80+90",
                   "-bg", "#" + harness.colour_hex(X_COLOUR),
                   "-fg", "#" + harness.colour_hex(X_COLOUR), "-title", "x max"])
        xwin = s.wait_window(app_id="XLogo", kind="x11",
                             where=lambda w: (w["width"], w["height"]) == (300, 200),
                             what="xlogo to map at 300x200")
        wid = s.wait_x_window("XLogo")
        normal = geometry(xwin)
        _x_agrees(s, wid, xwin["id"])

        s.orielctl("maximize", xwin["id"], "on")
        xwin = s.wait_window(id=xwin["id"],
                             where=lambda w: w["maximized"] and _fills(w, area),
                             what="xlogo to be maximized over the output")
        x_top, x_side = harness.fills_area(xwin, area)
        _x_agrees(s, wid, xwin["id"])
        s.wait_for(lambda: _net_wm_state(s, wid, ["_NET_WM_STATE_MAXIMIZED_VERT",
                                                  "_NET_WM_STATE_MAXIMIZED_HORZ"]),
                   what="xlogo's _NET_WM_STATE to say maximized")
        exclude = s.park_pointer()
        s.wait_colour(geometry(xwin), X_COLOUR, exclude=exclude,
                      what="maximized xlogo's colour over its geometry")

        s.orielctl("maximize", xwin["id"], "off")
        xwin = s.wait_window(id=xwin["id"],
                             where=lambda w: not w["maximized"] and
                             (w["width"], w["height"]) == normal[2:],
                             what="xlogo to return to 300x200")
        _x_agrees(s, wid, xwin["id"])
        s.wait_for(lambda: _net_wm_state(s, wid, [], absent=[
            "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"]),
                   what="xlogo's _NET_WM_STATE to drop maximized")

        s.orielctl("fullscreen", xwin["id"], "on")
        xwin = s.wait_window(id=xwin["id"],
                             where=lambda w: w["fullscreen"] and geometry(w) == area,
                             what="xlogo to be fullscreen over %r" % (area,))
        _x_agrees(s, wid, xwin["id"])
        s.wait_for(lambda: _net_wm_state(s, wid, ["_NET_WM_STATE_FULLSCREEN"]),
                   what="xlogo's _NET_WM_STATE to say fullscreen")
        exclude = s.park_pointer()
        s.wait_colour(area, X_COLOUR, exclude=exclude,
                      what="the whole output to show fullscreen xlogo")

        s.orielctl("fullscreen", xwin["id"], "off")
        xwin = s.wait_window(id=xwin["id"],
                             where=lambda w: not w["fullscreen"] and not w["maximized"]
                             and (w["width"], w["height"]) == normal[2:],
                             what="xlogo to leave fullscreen at 300x200")
        _x_agrees(s, wid, xwin["id"])


def _fills(w, area):
    try:
        harness.fills_area(w, area)
        return True
    except NotYet:
        return False


def _close(s, client, win):
    s.orielctl("close", win["id"])
    client.wait(timeout=10)
    expect_eq(client.proc.returncode, 0, "exit status of %s after close" % client.name)
    s.wait_no_window(id=win["id"])


def _x_agrees(s, wid, win_id):
    def agrees():
        info = s.xwininfo(wid)
        win = s.window_by(id=win_id)
        expect(win is not None, "window %d vanished from the list" % win_id)
        x11 = (info["x"], info["y"], info["width"], info["height"])
        if x11 != geometry(win):
            raise NotYet("xwininfo %r vs orielctl %r" % (x11, geometry(win)))
        return True
    s.wait_for(agrees, what="xwininfo to agree with orielctl windows")


def _net_wm_state(s, wid, present, absent=()):
    value = s.xprop(wid, "_NET_WM_STATE")
    atoms = set(a.strip() for a in value.split("=", 1)[-1].split(",")) \
        if "=" in value else set()
    missing = [a for a in present if a not in atoms]
    extra = [a for a in absent if a in atoms]
    if missing or extra:
        raise NotYet("xprop: %s" % value)
    return True


if __name__ == "__main__":
    harness.run(main)
