#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""xfreerdp /dynamic-resolution resizes the output through Display Control.

xfreerdp, in an Xvfb of its own, logs in with `/dynamic-resolution`:
through the graphics pipeline with H.264, without H.264, and with
classic RemoteFX surface bits (`/network:lan /rfx`, no GFX). When
its window is resized (xdotool windowsize), it sends the new monitor
layout; oriel's output takes that size, X apps see it through RandR
(`xrandr` in the session), and xfreerdp's window still shows the colour
window at its place.
"""
import re
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect, NotYet

COLOUR = (0xc0, 0x40, 0x30)
PASSWORD = "disp-Pass-6262"
SIZE = (200, 150)
POS = (120, 90)


def shows_window(s, xvfb, client):
    rdp.wait_shows_colour(s, xvfb, client, COLOUR, POS, SIZE)


def xrandr_size(s):
    out = s.run_tool(["xrandr"], x=True).stdout
    m = re.search(r"current (\d+) x (\d+)", out)
    expect(m, "xrandr printed no current size:\n%s" % out)
    return int(m.group(1)), int(m.group(2))


def resize_and_check(s, xvfb, client, size):
    wid = client.window()[4]
    xvfb.xdotool("windowsize", wid, *size)

    def followed():
        out = s.output()
        if (out["width"], out["height"]) != size:
            raise NotYet("the output is %dx%d" % (out["width"], out["height"]))
        if xrandr_size(s) != size:
            raise NotYet("xrandr shows %dx%d" % xrandr_size(s))
        return True
    s.wait_for(followed, what="the output and RandR to be %dx%d" % size)
    expect("resizes HEADLESS-1 to %dx%d" % size in s.log_text(),
           "oriel did not log the client's resize")
    shows_window(s, xvfb, client)


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-resize-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("bob", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["800x600"], args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            s.colour_window_at(COLOUR, SIZE, POS, "red", "org.oriel.test.r")
            rdp.wait_listening(s, port)
            s.park_pointer()
            for name, extra, sizes in (("gfx", ["/gfx:avc420"], [(900, 700), (1000, 640)]),
                                       ("rfx", ["/gfx:rfx"], [(860, 620)]),
                                       ("classic", ["/network:lan", "/rfx"], [(840, 600)])):
                with rdp.client_in_xvfb(s, port, "bob", PASSWORD,
                                        ["/size:1024x768", "/dynamic-resolution"] + extra,
                                        name="client-" + name) as (xvfb, client):
                    shows_window(s, xvfb, client)
                    for size in sizes:
                        resize_and_check(s, xvfb, client, size)


if __name__ == "__main__":
    harness.run(main)
