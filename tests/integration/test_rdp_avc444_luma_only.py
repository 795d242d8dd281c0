#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""AVC444v2 frames that carry their luma picture alone.

When a frame's two pictures do not encode within a 60 Hz frame's time,
oriel sends the chroma picture in only the share of frames that fits
(remote/rdp/rdp_chroma_share.c); the other frames carry the luma picture
alone (LC 1), which the client shows with 4:2:0 colour. Here the budget is
0 ms (ORIEL_RDP_CHROMA_BUDGET_MS), so from the second frame on most frames
are luma only, and oriel-test-rdpclient (libfreerdp-client2) asks for
AVC444:
- it names luma-only frames among what came (avc444-luma-only);
- the colour window moved shows at its new place within H.264's
  tolerance, then, once still, the client's screen equals oriel's
  screenshot pixel for pixel: what luma-only frames left in 4:2:0 colour
  was refined losslessly;
- bench/apps/animate repaints the whole screen: the client reads ever new
  frame numbers from the decoded frames, which a stream whose luma and
  chroma pictures went out of step would not give.
"""
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect, log
from test_rdp_gfx_h264 import COLOUR, COUNTERS, OUTPUT, SIZE, exact, move_and_check, text_xterm
from test_rdp_stalled_client import build_animate

PASSWORD = "luma-Only-4471"


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-luma-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("lena", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["%dx%d" % OUTPUT], env={"ORIEL_RDP_CHROMA_BUDGET_MS": "0"},
                     args=rdp.rdp_args(port, "--rdp-users", users, "--rdp-codec", "avc444")) \
                as s:
            text_xterm(s, d)
            _, window = s.colour_window_at(COLOUR, SIZE, (600, 400), "colour",
                                           "org.oriel.test.l")
            rdp.wait_listening(s, port)
            pointer_box = s.park_pointer()
            secret = rdp.write_secret(s, PASSWORD)
            client = rdp.RdpClient(s, port, name="watch", user="lena", password_file=secret,
                                   size=OUTPUT, gfx="avc444")
            client.wait_connected()
            client.wait_line(lambda l: l == "codec gfx-avc444v2", what="a frame in AVC444v2")
            exact(s, client, pointer_box, "the first picture")
            for place in ((500, 300), (650, 450), (300, 200)):
                move_and_check(s, client, window, place, pointer_box,
                               "moved to %s" % (place,))
            codecs = client.codecs()
            log("codecs %s" % codecs)
            expect("avc444-luma-only" in codecs,
                   "no frame came with its luma picture alone: %s" % codecs)
            client.close()

            s.spawn_x([build_animate(d), "--size", "%dx%d" % OUTPUT, "--fps", "30"])
            client = rdp.RdpClient(s, port, name="animate", user="lena", password_file=secret,
                                   size=OUTPUT, gfx="avc444", extra=["--counter"])
            client.wait_connected()
            client.wait_line(lambda l: l == "codec avc444-luma-only",
                             what="a luma-only frame of the animation")

            def counted():
                n = client.stats()["counters"]
                if n < COUNTERS:
                    raise NotYet("%d frame numbers read" % n)
                return n
            s.wait_for(counted, what="%d frame numbers read from moving frames" % COUNTERS)
            client.close()
            s.check_alive()


if __name__ == "__main__":
    harness.run(main)
