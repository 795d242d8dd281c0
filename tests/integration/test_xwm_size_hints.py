#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""WM_NORMAL_HINTS are honoured, as a real X window manager would.

- xterm's resize increments: a resize it asks for itself (xdotool
  windowsize, a ConfigureRequest), one through the control API and a
  maximize all give sizes of base + n * increment, in xwininfo and orielctl;
- USPosition with NorthWest gravity: the frame's top-left is where the
  client asked (xlogo -geometry +50+60);
- USPosition with SouthEast gravity (xlogo -geometry -0-0): the frame's
  bottom-right corner is the output's.
"""
import re

import harness
from harness import NotYet, Session, expect, expect_eq, geometry, tool

COLOUR = (0xc4, 0x35, 0x12)


def hints(s, wid):
    out = s.xprop(wid, "WM_NORMAL_HINTS")
    m_inc = re.search(r"resize increment: (\d+) by (\d+)", out)
    m_base = re.search(r"base size: (\d+) by (\d+)", out)
    expect(m_inc and m_base, "xterm has no increments/base size: %s" % out)
    return (int(m_inc.group(1)), int(m_inc.group(2)),
            int(m_base.group(1)), int(m_base.group(2)))


def on_grid(size, inc, base):
    return (size - base) % inc == 0


def wait_xterm_size(s, wid, win_id, inc_w, inc_h, base_w, base_h, not_size, what):
    """Wait until xterm has settled on a new size; check it is on the grid."""
    def settled():
        info = s.xwininfo(wid)
        size = (info["width"], info["height"])
        if size == not_size:
            raise NotYet("still %r" % (size,))
        win = s.window_by(id=win_id)
        if (win["width"], win["height"]) != size:
            raise NotYet("xwininfo %r, orielctl %r" % (size, geometry(win)))
        return size
    size = s.wait_for(settled, what=what)
    expect(on_grid(size[0], inc_w, base_w) and on_grid(size[1], inc_h, base_h),
           "%s: %dx%d is not base %dx%d + n * %dx%d" % (
               what, size[0], size[1], base_w, base_h, inc_w, inc_h))
    return size


def main():
    with Session(outputs=["1024x768"]) as s:
        # USPosition, NorthWest gravity: the frame's corner is at +50+60.
        s.spawn_x([tool("xlogo"), "-geometry", "200x100+50+60", "-title", "nw"])
        nw = s.wait_window(title="nw", kind="x11",
                           where=lambda w: (w["width"], w["height"]) == (200, 100))
        x, y = nw["x"], nw["y"]
        # Content inset = the frame's side border and title bar.
        side = x - 50
        top = y - 60
        expect(0 <= side <= 8 and side <= top <= 64,
               "xlogo +50+60 content at %d,%d: the frame is not at 50,60" % (x, y))

        # SouthEast gravity: the frame's bottom-right corner is the output's.
        s.spawn_x([tool("xlogo"), "-geometry", "200x100-0-0", "-title", "se",
                   "-bg", "#" + harness.colour_hex(COLOUR),
                   "-fg", "#" + harness.colour_hex(COLOUR)])
        se = s.wait_window(title="se", kind="x11",
                           where=lambda w: (w["width"], w["height"]) == (200, 100))
        expect_eq((se["x"] + 200 + side, se["y"] + 100 + side), (1024, 768),
                  "bottom-right of xlogo -0-0's frame")

        s.spawn_x([tool("xterm"), "-geometry", "80x24+10+10", "-title", "hints"])
        win = s.wait_window(app_id="XTerm", kind="x11")
        wid = s.wait_x_window("XTerm")
        inc_w, inc_h, base_w, base_h = hints(s, wid)
        expect(inc_w > 1 and inc_h > 1, "xterm increments %dx%d" % (inc_w, inc_h))
        start = s.wait_for(lambda: (lambda i: (i["width"], i["height"]))(s.xwininfo(wid)),
                           what="xterm's size")

        # The client asks for an off-grid size itself.
        s.x_tool(tool("xdotool"), "windowsize", str(wid),
                 str(base_w + 50 * inc_w + inc_w // 2),
                 str(base_h + 10 * inc_h + inc_h // 2))
        size = wait_xterm_size(s, wid, win["id"], inc_w, inc_h, base_w, base_h,
                               start, "xterm resized by its own request")
        expect_eq(size, (base_w + 50 * inc_w, base_h + 10 * inc_h), "snapped size")

        # The control API asks for an off-grid size.
        s.orielctl("resize", win["id"], base_w + 60 * inc_w + 1,
                   base_h + 20 * inc_h + inc_h - 1, json=False)
        size = wait_xterm_size(s, wid, win["id"], inc_w, inc_h, base_w, base_h,
                               size, "xterm resized through orielctl")
        expect_eq(size, (base_w + 60 * inc_w, base_h + 20 * inc_h), "snapped size")

        # Maximized: the largest grid size that fits the output.
        s.orielctl("maximize", win["id"], "on", json=False)
        size = wait_xterm_size(s, wid, win["id"], inc_w, inc_h, base_w, base_h,
                               size, "maximized xterm")
        expect(size[0] > 1024 - inc_w - 8 and size[0] <= 1024,
               "maximized width %d does not fill 1024 within an increment" % size[0])


if __name__ == "__main__":
    harness.run(main)
