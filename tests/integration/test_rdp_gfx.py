#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""xfreerdp shows the session through the graphics pipeline (RDPGFX).

oriel serves RDP with a users file; xfreerdp, in an Xvfb of its own,
logs in once with `/gfx:avc420` (H.264 frames, encoded by x264 on the
CPU), once with `/gfx:rfx` (GFX without H.264:
progressive RemoteFX), and once with `/network:lan /rfx` (classic RemoteFX surface
bits). Each time oriel logs the pipeline and codec it confirmed (none
for the last), and xfreerdp's window shows the colour window at its place,
and, after the window moves, at its new place (damage-only frames),
where through the pipeline it soon shows exactly its colour (the lossy
frames are refined losslessly once still). Through the pipeline, a
2-pixel-wide patch of the window toggled on and off shows exactly (small
damage goes as lossless planar tiles, which FreeRDP cannot make that
narrow: they are widened).
"""
import os
import signal
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect, NotYet

COLOUR = (0x20, 0xa0, 0x60)
PATCH_COLOUR = (0x00, 0x00, 0xff)
PATCH = (30, 20, 2, 40)
PASSWORD = "gfx-Pass-5150"
SIZE = (300, 200)


def check_window_shows(s, xvfb, client, pos, tolerance=12):
    return rdp.wait_shows_colour(s, xvfb, client, COLOUR, pos, SIZE, tolerance)


def show_patch(s, xvfb, client, colour, place):
    """A 2-pixel-wide change (a planar tile narrower than FreeRDP's codec
    takes) shows exactly, and goes away again."""
    for shown_colour in (PATCH_COLOUR, COLOUR):
        os.kill(colour.proc.pid, signal.SIGUSR1)
        x, y = place[0] + PATCH[0], place[1] + PATCH[1]

        def shown():
            wx, wy = client.window()[:2]
            img = xvfb.screen()
            rect = (wx + x, wy + y, PATCH[2], PATCH[3])
            if img.count_colour(rect, shown_colour, tolerance=2) != PATCH[2] * PATCH[3]:
                raise NotYet("the patch is %s" % img.describe(rect))
            return True
        s.wait_for(shown, what="the patch to be #%s" % harness.colour_hex(shown_colour))


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-gfx-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("alice", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["800x600"], args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            colour = s.spawn_colour(COLOUR, size=SIZE, title="green", app_id="org.oriel.test.g",
                                    extra=["--patch", "%d,%d,%d,%d" % PATCH,
                                           "--patch-colour", harness.colour_hex(PATCH_COLOUR)])
            colour.wait_ready(size=SIZE)
            window = s.wait_window(app_id="org.oriel.test.g")
            s.orielctl("move", window["id"], 240, 160)
            s.wait_window(id=window["id"], where=lambda w: (w["x"], w["y"]) == (240, 160))
            rdp.wait_listening(s, port)
            s.park_pointer()
            xvfb = rdp.Xvfb(s)
            try:
                for name, extra, logged, place in (
                        ("avc420", ["/gfx:avc420"], "AVC420", (240, 160)),
                        ("rfx", ["/gfx:rfx"], "progressive RemoteFX", (100, 300)),
                        ("classic", ["/network:lan", "/rfx"], None, (100, 300))):
                    before = s.log_text().count("graphics pipeline")
                    client = rdp.XFreeRDP(s, xvfb, port, "alice", PASSWORD,
                                          ["/size:1024x768"] + extra, name="client-" + name)
                    try:
                        check_window_shows(s, xvfb, client, place)

                        def confirmed():
                            lines = [l for l in s.log_text().splitlines()
                                     if "graphics pipeline" in l][before:]
                            if not lines:
                                raise NotYet("oriel logged no graphics pipeline")
                            return lines[0]
                        if logged:
                            line = s.wait_for(confirmed, what="oriel to confirm the pipeline")
                            expect(line.endswith(logged), "the %s client got %r" % (name, line))
                            show_patch(s, xvfb, client, colour, place)
                        new_place = (place[0] + 200, place[1] + 60)
                        s.orielctl("move", window["id"], *new_place)
                        check_window_shows(s, xvfb, client, new_place)
                        if logged:
                            # Once still, GFX's lossy frames are refined losslessly.
                            check_window_shows(s, xvfb, client, new_place, tolerance=0)
                        s.orielctl("move", window["id"], 100, 300)
                        if not logged:
                            expect(s.log_text().count("graphics pipeline") == before,
                                   "the client without GFX got the graphics pipeline")
                    finally:
                        client.close()
            finally:
                xvfb.close()


if __name__ == "__main__":
    harness.run(main)
