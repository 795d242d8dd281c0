#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Our libfreerdp client below 32 bits per pixel decodes the whole desktop.

oriel-test-rdpclient asks for 32, 24, 16, 15 and 8 bits per pixel (classic
bitmap updates, no RemoteFX), decodes with FreeRDP's software GDI and
writes the screen once every pixel was painted. Against oriel's own
screenshot (the pointer's corner aside):
- 32 bits: planar, equal pixel for pixel;
- 24 bits: uncompressed bitmaps, equal pixel for pixel;
- 16 and 15 bits: interleaved RLE, every pixel within what 5 bits a
  channel lose (8);
- 8 bits: the client is told to take 16, and gets the same (oriel logs
  it).
Each client names the one codec it got.
"""
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect

COLOUR = (0xd8, 0x20, 0x30)
POS, SIZE = (243, 161), (301, 203)
OUTPUT = (1024, 768)
PASSWORD = "depths-Pass-3131"

# (bits asked for, tolerance a channel, the codec the client names)
DEPTHS = [(32, 0, "planar"), (24, 0, "bitmap"), (16, 8, "interleaved"),
          (15, 8, "interleaved"), (8, 8, "interleaved")]


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-client-depths-") as d:
        users = vnc.write_users_file(Path(d), [("dora", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["%dx%d" % OUTPUT], args=rdp.rdp_args(port, "--rdp-users", users)) \
                as s:
            s.colour_window_at(COLOUR, SIZE, POS, "colour", "org.oriel.test.c")
            s.spawn_x([harness.tool("xterm"), "-geometry", "40x6+600+420", "-e",
                       "sh", "-c", "printf 'depths 8 15 16 24'; exec sleep 1000"])
            s.wait_window(app_id="XTerm", kind="x11", where=lambda w: w["width"] > 0)
            rdp.wait_listening(s, port)
            pointer_box = s.park_pointer()
            secret = rdp.write_secret(s, PASSWORD)
            account = dict(user="dora", password_file=secret, size=OUTPUT)
            shot = s.screenshot()

            for bpp, tolerance, codec in DEPTHS:
                rc, img, lines = rdp.rdpclient_snapshot(s, port, extra=["--bpp", bpp],
                                                        **account)
                expect(rc == 0, "the client at %d bpp failed (%d):\n%s" % (
                    bpp, rc, "\n".join(lines[-20:])))
                vnc.expect_same_pixels(img, shot, tolerance=tolerance, exclude=pointer_box,
                                       what="the RDP client's screen at %d bpp" % bpp)
                codecs = [l.split()[1] for l in lines if l.startswith("codec ")]
                expect(codecs == [codec], "at %d bpp the client got %s, not %s" % (
                    bpp, codecs, codec))
                frames = [l.split() for l in lines if l.startswith("frame ")]
                harness.log("%d bpp: %s, within %d; %s bytes received for the desktop" % (
                    bpp, codec, tolerance, frames[-1][2] if frames else "?"))

            expect("asked for 8 bits per pixel: it gets 16" in s.log_text(),
                   "oriel did not log the 8-bit client's upgrade")


if __name__ == "__main__":
    harness.run(main)
