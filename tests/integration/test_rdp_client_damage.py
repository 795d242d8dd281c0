#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""RDP clients get only what changed, and nothing when nothing changes.

A colour window has a 16x16 patch that toggles colour on SIGUSR1,
damaging only that patch. oriel-test-rdpclient watches the session and
prints the rectangles of every paint it decodes. Once it shows the window:
- a toggle reaches it (the patch's new colour at its place, the window
  around it unchanged), and every rectangle painted since the toggle lies
  within the 64x64 tiles that the patch touches: never the screen;
- the bytes that toggle cost are a small part of one raw frame;
- then, with nothing changing, over a few seconds it gets no paint and no
  byte.
This runs with classic bitmaps and with the graphics pipeline asked for
(AVC420), whichever the server serves; the toggle comes once the first
frames settled (the pipeline refines lossy frames losslessly once still).
"""
import os
import signal
import tempfile
import time
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect

COLOUR = (0x20, 0xa0, 0x60)
PATCH_COLOUR = (0x00, 0x00, 0xff)
OUTPUT = (1024, 768)
POS, SIZE = (100, 100), (600, 400)
PATCH = (50, 50, 16, 16)
TILE = 64
IDLE = 3.0
PASSWORD = "damage-Pass-8080"


def tiles_of(rect):
    x, y, w, h = rect
    x0, y0 = x // TILE * TILE, y // TILE * TILE
    x1, y1 = -(-(x + w) // TILE) * TILE, -(-(y + h) // TILE) * TILE
    return (x0, y0, x1 - x0, y1 - y0)


def toggle(s, client, colour_client, patch, colour, tolerance, what):
    """Toggle the patch; return the update rectangles and bytes it took."""
    mark = client.mark()
    before = client.stats()["bytes"]
    os.kill(colour_client.proc.pid, signal.SIGUSR1)
    client.wait_colour(patch, colour, tolerance=tolerance, what="%s: the patch to turn #%s" % (
        what, harness.colour_hex(colour)))
    rects = vnc.updates(client.lines_since(mark))
    cost = client.stats()["bytes"] - before
    return rects, cost


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-cdamage-") as d:
        users = vnc.write_users_file(Path(d), [("dmg", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["%dx%d" % OUTPUT], args=rdp.rdp_args(port, "--rdp-users", users)) \
                as s:
            colour = rdp.patch_window_at(s, COLOUR, SIZE, POS, PATCH, PATCH_COLOUR)
            rdp.wait_listening(s, port)
            s.park_pointer()
            secret = rdp.write_secret(s, PASSWORD)
            patch = (POS[0] + PATCH[0], POS[1] + PATCH[1], PATCH[2], PATCH[3])
            allowed = tiles_of(patch)
            beside = (patch[0] + PATCH[2] + 4, patch[1], 40, PATCH[3])
            shown = COLOUR  # the patch starts as the window
            for gfx in ("off", "avc420"):
                client = rdp.RdpClient(s, port, name="watch-" + gfx, user="dmg",
                                       password_file=secret, size=OUTPUT, gfx=gfx)
                client.wait_connected()
                tolerance = 0 if gfx == "off" else 16
                client.wait_colour((POS[0] + 200, POS[1] + 200, 100, 100), COLOUR,
                                   tolerance=tolerance, what="the window")
                rdp.wait_settled(s, client)
                shown = COLOUR if shown == PATCH_COLOUR else PATCH_COLOUR
                rects, cost = toggle(s, client, colour, patch, shown, tolerance, gfx)
                harness.log("--gfx %s (codecs %s): the 16x16 patch came as %s, %d bytes" % (
                    gfx, client.codecs(), rects, cost))
                expect(rects, "no update rectangles for the patch")
                for r in rects:
                    expect(vnc.inside(r, allowed), "--gfx %s: a paint at %r, outside the "
                           "patch's tiles %r" % (gfx, r, allowed))
                img = client.framebuffer()
                expect(img.count_colour(beside, COLOUR, tolerance=tolerance) == 40 * PATCH[3],
                       "beside the patch: %s" % img.describe(beside))
                raw_frame = OUTPUT[0] * OUTPUT[1] * 4
                expect(0 < cost < raw_frame // 100, "the patch cost %d bytes (a raw frame is "
                       "%d)" % (cost, raw_frame))

                # Idle: nothing changes, nothing comes.
                mark = client.mark()
                before = client.stats()
                time.sleep(IDLE)  # the measurement window
                after = client.stats()
                frames = client.lines_since(mark, "frame")
                expect(not frames, "--gfx %s: %d paints while idle: %s" % (
                    gfx, len(frames), client.lines_since(mark)[:10]))
                expect(after["bytes"] == before["bytes"], "--gfx %s: %d bytes while idle" % (
                    gfx, after["bytes"] - before["bytes"]))
                client.close()
            s.check_alive()


if __name__ == "__main__":
    harness.run(main)
