#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""vncsnapshot (a TightVNC-based client from Debian) grabs what a person sees.

vncsnapshot connects with Hextile (lossless), without the cursor,
and writes a JPEG at quality 100, which djpeg turns back into a PPM.  The
size must be the output's, and in flat areas (the colour window's
interior, and a patch of the desktop) the pixels must match
`orielctl screenshot` within what JPEG's own compression changes.
"""
import harness
import vnc
from harness import Session, expect, expect_eq, geometry, tool

COLOUR = (0x20, 0x60, 0xd0)
TOLERANCE = 8


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=vnc.vnc_args(port)) as s:
        client = s.spawn_colour(COLOUR, size=(320, 240), title="vncsnapshot",
                                app_id="org.oriel.test.vncsnapshot")
        client.wait_ready(size=(320, 240))
        win = s.wait_window(app_id="org.oriel.test.vncsnapshot")
        rect = geometry(win)
        s.park_pointer()
        s.wait_colour(rect, COLOUR)
        vnc.wait_listening(s, vnc.tcp(port))
        shot = s.screenshot()

        jpeg = s.tmp / "vncsnapshot.jpg"
        ppm = s.tmp / "vncsnapshot.ppm"
        # Hextile: vncsnapshot 1.2a (TightVNC 1.2.8) never finishes a Tight
        # update from libvncserver 0.9.14 (x11vnc's neither).
        s.run_tool([tool("vncsnapshot"), "-quiet", "-allowblank", "-nocursor",
                    "-quality", "100", "-encodings", "hextile",
                    "%s::%d" % (vnc.LOCALHOST, port), jpeg], timeout=30)
        expect(jpeg.exists(), "vncsnapshot wrote no %s" % jpeg)
        res = s.run_tool([tool("djpeg"), "-pnm", "-outfile", ppm, jpeg])
        img = vnc.read_ppm(ppm)
        expect_eq((img.width, img.height), (shot.width, shot.height),
                  "vncsnapshot's image size vs the screenshot")

        inner = vnc.grow(rect, -8, -8, -8, -8)
        desktop = (rect[0] + rect[2] + 80, rect[1] + rect[3] + 80, 100, 100)
        for area, what in ((inner, "the window"), (desktop, "the desktop")):
            bad, first = vnc.compare(img, shot, area, TOLERANCE)
            expect(bad == 0, "vncsnapshot differs from the screenshot in %s: %d "
                   "pixels, first %r; vncsnapshot has %s, screenshot %s" % (
                       what, bad, first, img.describe(area), shot.describe(area)))
        expect(res.returncode == 0, "djpeg failed")


if __name__ == "__main__":
    harness.run(main)
