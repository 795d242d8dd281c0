#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A viewer sees exactly the pixels that a screenshot shows.

oriel serves VNC on a loopback TCP port and on a Unix socket.  A 320x240
colour window is presented; then oriel-test-vncviewer grabs whole
framebuffers with each lossless encoding (Raw, Tight without JPEG, ZRLE,
Hextile, Zlib) over TCP, and with Raw over the Unix socket.  Every one
must equal `orielctl screenshot` pixel for pixel, outside the box where
the parked pointer may be drawn.  Tight with JPEG (quality level 9) must
show the window's colour within a JPEG tolerance away from its edges.
"""
import tempfile

import harness
import vnc
from harness import Session, expect_eq, geometry

COLOUR = (0xd0, 0x20, 0x40)
LOSSLESS = ["raw", "tight", "zrle", "hextile", "zlib"]


def main():
    port = vnc.free_port()
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-") as d:
        sock = d + "/vnc.sock"
        with Session(outputs=["1024x768"],
                     args=vnc.vnc_args(port, "--vnc-unix", sock)) as s:
            client = s.spawn_colour(COLOUR, size=(320, 240), title="vnc pixels",
                                    app_id="org.oriel.test.vncpixels")
            client.wait_ready(size=(320, 240))
            win = s.wait_window(app_id="org.oriel.test.vncpixels")
            rect = geometry(win)
            exclude = s.park_pointer()
            s.wait_colour(rect, COLOUR, tolerance=0)
            vnc.wait_listening(s, vnc.tcp(port))
            vnc.wait_listening(s, sock)
            shot = s.screenshot()

            for enc in LOSSLESS:
                img = vnc.snapshot(s, vnc.tcp(port), encodings=enc)
                vnc.expect_same_pixels(img, shot, exclude=exclude,
                                       what="framebuffer with %s" % enc)
                expect_eq(img.count_colour(rect, COLOUR), rect[2] * rect[3],
                          "pixels of the window's colour with %s" % enc)
            img = vnc.snapshot(s, sock, encodings="raw")
            vnc.expect_same_pixels(img, shot, exclude=exclude,
                                   what="framebuffer over the Unix socket")

            img = vnc.snapshot(s, vnc.tcp(port), encodings="tight", quality=9)
            inner = vnc.grow(rect, -16, -16, -16, -16)
            bad = img.first_mismatch(inner, COLOUR, tolerance=24)
            harness.expect(bad is None, "Tight JPEG framebuffer: the window shows %s"
                           % img.describe(inner))


if __name__ == "__main__":
    harness.run(main)
