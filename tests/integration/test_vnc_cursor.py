#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The rich-cursor pseudo-encoding delivers the cursor, and its changes.

A viewer that asks for the cursor pseudo-encodings moves the pointer over
the empty desktop and receives a cursor shape with visible pixels and a
hotspot inside it.  Moving over xterm's text area (which sets the X
`xterm` I-beam cursor through Xwayland) delivers a different shape.  The
framebuffer itself never contains the cursor: the pixels around the
pointer stay the desktop's.
"""
import harness
import vnc
from harness import Session, expect, tool


def parse(line):
    _, w, h, hx, hy, opaque, digest = line.split()
    return int(w), int(h), int(hx), int(hy), int(opaque), digest


def check_shape(c, what):
    w, h, hx, hy, opaque, _ = c
    expect(w > 0 and h > 0 and opaque > 0, "%s: empty cursor %r" % (what, c))
    expect(0 <= hx < w and 0 <= hy < h, "%s: hotspot outside the cursor %r" % (what, c))


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=vnc.vnc_args(port)) as s:
        vnc.wait_listening(s, vnc.tcp(port))
        v = vnc.Viewer(s, vnc.tcp(port), encodings="raw")
        v.wait_connected()
        v.wait_line("frame")
        before = v.framebuffer()
        mark = v.mark()
        v.pointer(40, 40)
        v.pointer(50, 50)
        first = parse(v.wait_line("cursor", what="a cursor shape"))
        check_shape(first, "cursor over the desktop")
        v.quiesce()
        after = v.framebuffer()
        bad, where = vnc.compare(before, after, (0, 0, 200, 200))
        expect(bad == 0, "the cursor was drawn into the framebuffer: %d pixels "
               "changed near the pointer, first %r" % (bad, where))

        s.spawn_x([tool("xterm"), "-geometry", "60x10+300+200", "-title", "vnc cursor"])
        win = s.wait_window(app_id="XTerm", kind="x11",
                            where=lambda w: w["width"] > 0 and w["height"] > 0)
        mark = v.mark()
        cx, cy = win["x"] + win["width"] // 2, win["y"] + win["height"] // 2
        v.pointer(cx, cy)
        v.pointer(cx + 3, cy + 2)

        def changed(line):
            return line.startswith("cursor ") and parse(line) != first
        second = parse(v.wait_line(changed, since=mark,
                                   what="a different cursor over xterm"))
        check_shape(second, "cursor over xterm")
        harness.log("cursors: desktop %r, xterm %r" % (first, second))


if __name__ == "__main__":
    harness.run(main)
