#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Only damage goes to RDP clients.

A colour window has a 16x16 patch that toggles colour on SIGUSR1,
damaging only that patch. Once xfreerdp shows the window and has
acknowledged its frames, a toggle reaches the client (the patch's new
colour shows at its place, the pixels around it stay) and costs oriel
only a few hundred bytes on the wire: the RemoteFX tile around the patch,
not the desktop.
"""
import os
import signal
import tempfile
import time
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect
from test_rdp_idle_cpu import bytes_sent
from test_rdp_pixels import COLOUR, check_window_shows

PASSWORD = "damage-Pass-4242"
PATCH_COLOUR = (0x00, 0x00, 0xff)
POS, SIZE = (100, 100), (600, 400)
PATCH = (50, 50, 16, 16)
MAX_BYTES = 4096


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-damage-") as d:
        users = vnc.write_users_file(Path(d), [("dmg", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["1024x768"], args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            colour = s.spawn_colour(COLOUR, size=SIZE, title="patch", app_id="org.oriel.test.p",
                                    extra=["--patch", "%d,%d,%d,%d" % PATCH,
                                           "--patch-colour", harness.colour_hex(PATCH_COLOUR)])
            colour.wait_ready(size=SIZE)
            win = s.wait_window(app_id="org.oriel.test.p")
            s.orielctl("move", win["id"], *POS)
            s.wait_window(id=win["id"], where=lambda w: (w["x"], w["y"]) == POS)
            rdp.wait_listening(s, port)
            s.park_pointer()
            with rdp.client_in_xvfb(s, port, "dmg", PASSWORD, ["/size:1024x768"]) \
                    as (xvfb, client):
                check_window_shows(s, xvfb, client, POS, SIZE)
                x0, y0 = client.window()[:2]
                time.sleep(1)  # the last acknowledgements
                before = bytes_sent(port)
                os.kill(colour.proc.pid, signal.SIGUSR1)
                patch = (x0 + POS[0] + PATCH[0], y0 + POS[1] + PATCH[1], PATCH[2], PATCH[3])

                def shown():
                    img = xvfb.screen()
                    n = img.count_colour(patch, PATCH_COLOUR, tolerance=12)
                    if n < PATCH[2] * PATCH[3]:
                        raise NotYet("the patch is %s" % img.describe(patch))
                    return img
                img = s.wait_for(shown, what="xfreerdp to show the toggled patch")
                time.sleep(0.5)
                cost = bytes_sent(port) - before
                harness.log("a 16x16 patch cost %d bytes on the wire" % cost)
                around = (patch[0] + PATCH[2], patch[1], 40, PATCH[3])
                expect(img.count_colour(around, COLOUR, tolerance=12) == 40 * PATCH[3],
                       "beside the patch: %s" % img.describe(around))
                expect(0 < cost < MAX_BYTES, "the patch cost %d bytes (bound %d)" % (
                    cost, MAX_BYTES))


if __name__ == "__main__":
    harness.run(main)
