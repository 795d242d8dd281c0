#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--rdp-codec auto between AVC444v2 and AVC420, by what the CPU keeps up with.

oriel serves a 1920x1080 desktop over RDP with its default codec choice;
oriel-test-rdpclient asks for AVC444. bench/apps/animate repaints the
whole screen at 60 fps with fresh grain that differs in colour pixel by
pixel, so each AVC444v2 frame needs both pictures, far more than a
frame's time to encode on any two cores. So:
- the first frames come as AVC444v2 (auto offers it at any size);
- then oriel says that they take too long and goes on in AVC420: the
  client's frames come as AVC420 and it still reads new frame numbers;
- the app stops; once the screen has been still for 2 s (the client
  decodes nothing for longer), what H.264 left lossy is exact, and the
  next motion comes as AVC444v2 again.
"""
import re
import signal
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect
from test_rdp_stalled_client import build_animate

OUTPUT = (1920, 1080)
PASSWORD = "auto-Codec-3907"
FELL_BACK = "AVC420 until the screen is still"
CAME_BACK = "the screen was still: AVC444v2 again"


def wait_logged(s, text, count, what):
    def logged():
        n = s.log_text().count(text)
        return n if n >= count else NotYet("oriel said it %d times" % n)
    return s.wait_for(logged, timeout=harness.T(60), what=what)


def frame_numbers(client):
    return client.stats()["counters"]


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-avc444-auto-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("iris", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["%dx%d" % OUTPUT], args=rdp.rdp_args(port, "--rdp-users", users)) \
                as s:
            rdp.wait_listening(s, port)
            pointer_box = s.park_pointer()
            app = s.spawn_x([build_animate(d), "--size", "%dx%d" % OUTPUT, "--fps", "60",
                             "--noise"])
            client = rdp.RdpClient(s, port, name="auto", user="iris",
                                   password_file=rdp.write_secret(s, PASSWORD), size=OUTPUT,
                                   gfx="avc444", extra=["--counter"])
            client.wait_connected()
            line = s.wait_for(lambda: [l for l in s.log_text().splitlines()
                                       if "graphics pipeline" in l] or NotYet("no codec logged"),
                              what="oriel to log the pipeline's codec")[0]
            expect(line.endswith("AVC444v2"), "auto at 1920x1080 chose %r" % line)
            client.wait_line(lambda l: l == "codec gfx-avc444v2", what="a frame in AVC444v2")

            wait_logged(s, FELL_BACK, 1, "oriel to go on in AVC420")
            harness.log([l for l in s.log_text().splitlines() if FELL_BACK in l][0])
            client.wait_line(lambda l: l == "codec gfx-avc420", what="a frame in AVC420")
            numbers = frame_numbers(client)
            s.wait_for(lambda: frame_numbers(client) > numbers or NotYet("no new frame number"),
                       what="a new frame number in AVC420")

            # Still: the app pauses, the client decodes nothing for longer than 2 s.
            mark = len(app.log())
            app.proc.send_signal(signal.SIGUSR1)
            s.wait_for(lambda: re.search(r"paused at frame \d+", app.log()[mark:]) or
                       NotYet("the app has not paused"), what="the app to pause")
            rdp.wait_settled(s, client, quiet=2.5)
            vnc.expect_same_pixels(client.framebuffer(), s.screenshot(), exclude=pointer_box,
                                   what="the still screen after AVC420")

            both = client.stats()["avc444_both"]
            app.proc.send_signal(signal.SIGUSR1)
            wait_logged(s, CAME_BACK, 1, "oriel to go back to AVC444v2")
            s.wait_for(lambda: client.stats()["avc444_both"] > both or
                       NotYet("no AVC444v2 frame since the pause"),
                       what="motion in AVC444v2 again")
            client.close()
            s.check_alive()


if __name__ == "__main__":
    harness.run(main)
