#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Viewers asking for different pixel formats all see the right colours,
before and after the framebuffer is resized.

A red-ish Wayland window whose red and blue differ. Four viewers: raw and
Tight, each with libvncclient's format (red in the low byte, as noVNC
asks too) and with red in the high byte (as TigerVNC asks). Every one
sees the window's exact colour; then the output is resized with
`orielctl output-size` and every one still does (the server's pixel
format must not change under them); a viewer that joins afterwards too.
"""
import harness
import vnc
from harness import Session, expect_eq

COLOUR = (0xd0, 0x20, 0x40)
POS, SIZE = (60, 60), (200, 150)
PROBE = (POS[0] + 40, POS[1] + 40, SIZE[0] - 80, SIZE[1] - 80)


def main():
    port = vnc.free_port()
    with Session(outputs=["640x480"], args=vnc.vnc_args(port)) as s:
        s.park_pointer()
        s.colour_window_at(COLOUR, SIZE, POS, "formats", "org.oriel.test.formats")
        vnc.wait_listening(s, vnc.tcp(port))
        viewers = []
        for encodings in ("raw", "tight"):
            for bgr in (False, True):
                name = "%s-%s" % (encodings, "bgr" if bgr else "rgb")
                v = vnc.Viewer(s, vnc.tcp(port), name=name, encodings=encodings,
                               bgr=bgr, cursor=False)
                expect_eq(v.wait_connected(), (640, 480), "%s's first size" % name)
                viewers.append(v)
        for v in viewers:
            v.wait_colour(PROBE, COLOUR, what="the window's colour before the resize")

        name = s.output()["name"]
        marks = [v.mark() for v in viewers]
        s.orielctl("output-size", name, "800x600", json=False)
        for v, m in zip(viewers, marks):
            v.wait_line(lambda l: l == "resize 800 600", since=m,
                        what="%s to get the new size" % v.name)
        for v in viewers:
            v.wait_colour(PROBE, COLOUR, what="the window's colour after the resize")

        late = vnc.Viewer(s, vnc.tcp(port), name="late-bgr", encodings="raw", bgr=True,
                          cursor=False)
        expect_eq(late.wait_connected(), (800, 600), "the late viewer's size")
        for v in viewers + [late]:
            v.wait_colour(PROBE, COLOUR, what="the window's colour with a late viewer")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
