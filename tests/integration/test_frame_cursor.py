#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The frame's resize handles show the matching cursor.

Seen through the VNC rich-cursor pseudo-encoding, as a viewer shows it:
the pointer over the empty desktop has one shape (left_ptr); in the
invisible margin right of a decorated window another (right_side); at its
bottom-right corner a third (bottom_right_corner), and on its title bar
the first again.
"""
import harness
import vnc
from harness import Session, expect, geometry
from frame import MARGIN, TITLE_HEIGHT

APP_ID = "org.oriel.test.framecursor"


def shape(line):
    return tuple(line.split()[1:])


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=vnc.vnc_args(port)) as s:
        vnc.wait_listening(s, vnc.tcp(port))
        _, win = s.colour_window_at((0x30, 0x60, 0x90), (320, 240), (300, 200),
                                    "cursor", APP_ID)
        x, y, w, h = geometry(win)
        v = vnc.Viewer(s, vnc.tcp(port), encodings="raw")
        v.wait_connected()
        v.wait_line("frame")
        v.pointer(40, 40)
        v.pointer(50, 50)
        desktop = shape(v.wait_line("cursor", what="the desktop's cursor"))

        def moved_to(point, what, differs_from=None, equals=None):
            mark = v.mark()
            v.pointer(*point)

            def changed(line):
                if not line.startswith("cursor "):
                    return False
                got = shape(line)
                if equals is not None:
                    return got == equals
                return all(got != other for other in differs_from)
            return shape(v.wait_line(changed, since=mark, what=what))

        right = moved_to((x + w + MARGIN // 2 + 1, y + h // 2),
                         "a resize cursor right of the window", differs_from=[desktop])
        corner = moved_to((x + w + 2, y + h + 2), "a corner cursor",
                          differs_from=[desktop, right])
        moved_to((x + 40, y - TITLE_HEIGHT // 2), "the arrow on the title bar",
                 equals=desktop)
        harness.log("cursors: desktop %r, right %r, corner %r" % (desktop, right, corner))
        expect(right != corner, "edge and corner share a cursor")


if __name__ == "__main__":
    harness.run(main)
