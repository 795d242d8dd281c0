#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A fullscreen window in a format sinks cannot read is composited, not scanned out.

Viewers and casts read 32-bit pixels. A fullscreen Wayland client that
draws RGB565 buffers covering the whole output must therefore not be
scanned out ("Direct scan-out enabled" never appears in oriel's log):
it is composited into an output buffer, and the viewer sees its colour
over the whole screen.
"""
import harness
import vnc
from harness import NotYet, Session, expect

SIZE = (640, 480)
COLOUR = (0x20, 0x80, 0xc0)  # survives RGB565 within a step of 8


def main():
    port = vnc.free_port()
    whole = (0, 0) + SIZE
    # Debug logging: wlroots says "Direct scan-out enabled" only then.
    with Session(outputs=["%dx%d" % SIZE], args=vnc.vnc_args(port), debug=True) as s:
        s.park_pointer()
        c = s.spawn_colour(COLOUR, title="rgb565", app_id="org.oriel.test.rgb565",
                           fullscreen=True, extra=["--rgb565"])
        c.wait_ready(size=SIZE)
        vnc.wait_listening(s, vnc.tcp(port))
        v = vnc.Viewer(s, vnc.tcp(port), name="raw", encodings="raw")
        expect(v.wait_connected() == SIZE, "viewer size")

        def filled(img):
            n = img.count_colour(whole, COLOUR, tolerance=8)
            if n != SIZE[0] * SIZE[1]:
                raise NotYet("%d of %d pixels show the window: %s" % (
                    n, SIZE[0] * SIZE[1], img.describe(whole)))
            return n
        v.wait_framebuffer(filled, what="the RGB565 window over the whole output")
        expect("Direct scan-out enabled" not in s.log_text(),
               "an RGB565 buffer was scanned out")
        expect(c.alive(), "the client exited")


if __name__ == "__main__":
    harness.run(main)
