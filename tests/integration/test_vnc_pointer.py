#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Pointer clicks from a VNC viewer focus and raise windows, and open menus.

Two overlapping colour windows: the viewer clicks the visible part of the
lower one, which must come on top, focused, and show its colour over the
overlap in the viewer's own framebuffer; then the other way round.
Finally a Ctrl+left press over xterm opens xterm's "Main Options" menu
(a mapped override-redirect X window of xterm's client), and a press
elsewhere closes it again.
"""
import harness
import vnc
from harness import NotYet, Session, expect, tool

A = (0xd0, 0x20, 0x40)
B = (0x30, 0x50, 0xe0)
A_POS = (100, 120)
B_POS = (300, 260)
SIZE = (400, 300)


def on_top_and_focused(s, wid):
    wins = s.windows()
    if not wins or wins[-1]["id"] != wid:
        raise NotYet("stacking (bottom first): %s" % harness.brief_windows(wins))
    focused = [w["id"] for w in wins if w["focused"]]
    if focused != [wid]:
        raise NotYet("focused windows: %r" % focused)
    return True


def menu_shown(s, xterm_wid):
    """The id of a mapped override-redirect window of xterm's X client (its
    popup menu: a top-level with no name, the client's resource id base)."""
    tree = s.x_tool(tool("xwininfo"), "-root", "-children").stdout
    candidates = []
    for line in tree.splitlines():
        parts = line.split()
        if not parts or not parts[0].startswith("0x"):
            continue
        wid = int(parts[0], 16)
        if wid >> 21 != xterm_wid >> 21 or wid == xterm_wid:
            continue
        info = s.x_tool(tool("xwininfo"), "-id", parts[0], check=False).stdout
        candidates.append(parts[0])
        if "IsViewable" in info and "Override Redirect State: yes" in info:
            return parts[0]
    raise NotYet("no mapped override-redirect window of xterm's client "
                 "(candidates %r)" % candidates)


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=vnc.vnc_args(port)) as s:
        a, wa = s.colour_window_at(A, SIZE, A_POS, "A", "org.oriel.test.a")
        b, wb = s.colour_window_at(B, SIZE, B_POS, "B", "org.oriel.test.b")

        vnc.wait_listening(s, vnc.tcp(port))
        v = vnc.Viewer(s, vnc.tcp(port), encodings="raw")
        v.wait_connected()

        overlap = harness.intersect(A_POS + SIZE, B_POS + SIZE)
        only_a = (A_POS[0] + 50, A_POS[1] + 50)
        only_b = (B_POS[0] + SIZE[0] - 50, B_POS[1] + SIZE[1] - 50)
        probe = (overlap[0] + 40, overlap[1] + 40, overlap[2] - 80, overlap[3] - 80)
        top = s.windows()[-1]["id"]
        order = [(wa, A, only_a), (wb, B, only_b)]
        if top == wa["id"]:
            order.reverse()
        for win, colour, point in order + order[:1]:
            v.click(*point)
            s.wait_for(lambda: on_top_and_focused(s, win["id"]),
                       what="%s on top and focused after the viewer's click" % win["title"])
            v.wait_colour(probe, colour, what="the overlap to show %s at the viewer"
                          % win["title"])

        s.spawn_x([tool("xterm"), "-geometry", "40x8+600+40", "-title", "vnc menu"])
        xw = s.wait_window(app_id="XTerm", kind="x11",
                           where=lambda w: w["width"] > 0 and w["height"] > 0)
        xterm_wid = s.wait_x_window("XTerm")
        px, py = xw["x"] + xw["width"] // 2, xw["y"] + xw["height"] // 2
        v.pointer(px, py, 0)
        v.keysym("Control_L", "down")
        v.pointer(px, py, 1)
        s.wait_for(lambda: menu_shown(s, xterm_wid), what="xterm's Ctrl+click menu to open")
        # Let go over xterm's top-left corner, outside the menu (which opens
        # at the pointer and extends right and down), so no entry is chosen.
        v.pointer(xw["x"] + 3, xw["y"] + 3, 1)
        v.pointer(xw["x"] + 3, xw["y"] + 3, 0)
        v.keysym("Control_L", "up")

        def closed():
            try:
                menu_shown(s, xterm_wid)
            except NotYet:
                return True
            raise NotYet("the menu is still open")
        s.wait_for(closed, what="xterm's menu to close")
        expect(v.alive(), "viewer disconnected")


if __name__ == "__main__":
    harness.run(main)
