#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What went as JPEG is exact once the screen stands still.

oriel serves a 1024x768 desktop over VNC. bench/apps/animate pans a
photo-like picture across all of it at 30 fps. Two viewers watch:
- one asks for Tight with JPEG at quality level 5, as noVNC does by
  default (level 6): the moving picture comes as JPEG;
- one asks for Tight without JPEG, which is lossless throughout.

The app pauses, and both viewers' updates stop. Then both framebuffers
equal oriel's screenshot pixel for pixel (outside the parked pointer):
the JPEG viewer's photo went again, without JPEG, once it stood still,
in bands a few at a time. A fresh viewer at the same quality level, whose
first picture is all it takes, shows that picture to be JPEG's (it
differs from the screenshot). The app moves again and pauses again: the
same holds the second time.
"""
import re
import signal
import tempfile
from pathlib import Path

import harness
import vnc
from harness import NotYet, Session
from test_rdp_stalled_client import build_animate

OUTPUT = (1024, 768)


def pause_toggle(s, app):
    """SIGUSR1 toggles the app's pause; returns once it said so."""
    mark = len(app.log())
    app.proc.send_signal(signal.SIGUSR1)
    s.wait_for(lambda: re.search(r"(paused|resumed) at frame \d+", app.log()[mark:]) or
               NotYet("the app has not answered"), what="the app to pause or resume")


def same_pixels(img, shot, exclude):
    bad, first = vnc.compare(img, shot, (0, 0, shot.width, shot.height), exclude=exclude)
    if bad:
        (x, y), pa, pb = first
        raise NotYet("%d pixels differ; first at (%d,%d): #%s vs #%s" % (
            bad, x, y, harness.colour_hex(pa), harness.colour_hex(pb)))
    return img


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-refine-") as d:
        port = vnc.free_port()
        with Session(outputs=["%dx%d" % OUTPUT], args=vnc.vnc_args(port)) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            pointer_box = s.park_pointer()
            app = s.spawn_x([build_animate(Path(d)), "--size", "%dx%d" % OUTPUT,
                             "--fps", "30", "--photo"])
            jpeg = vnc.Viewer(s, vnc.tcp(port), name="jpeg", encodings="tight", quality=5)
            lossless = vnc.Viewer(s, vnc.tcp(port), name="lossless", encodings="tight")
            for viewer in (jpeg, lossless):
                viewer.wait_connected()
            for _ in range(2):
                for viewer in (jpeg, lossless):
                    mark = viewer.mark()
                    viewer.wait_line(lambda l: l.startswith("frame"), since=mark,
                                     what="the moving picture")
                pause_toggle(s, app)
                for viewer in (jpeg, lossless):
                    viewer.quiesce(quiet=1.0)
                shot = s.screenshot()
                for viewer in (jpeg, lossless):
                    viewer.wait_framebuffer(lambda img: same_pixels(img, shot, pointer_box),
                                            what="the still picture, exact")
                first = vnc.snapshot(s, vnc.tcp(port), encodings="tight", quality=5)
                bad, _ = vnc.compare(first, shot, (0, 0) + OUTPUT, exclude=pointer_box)
                harness.expect(bad > 0, "a JPEG viewer's first picture is exact: "
                               "nothing here was sent as JPEG")
                harness.log("a JPEG viewer's first picture: %d pixels off" % bad)
                pause_toggle(s, app)
            for viewer in (jpeg, lossless):
                viewer.close()
            s.check_alive()


if __name__ == "__main__":
    harness.run(main)
