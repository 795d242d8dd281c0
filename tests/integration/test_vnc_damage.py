#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Incremental updates carry only the damaged area; idle means no updates.

A viewer (Raw, so rectangles are not re-tiled by an encoder) watches an
otherwise empty 1024x768 desktop.  A 200x150 colour window is mapped and
later killed: every rectangle that arrives for each change must lie
within that window's frame (content plus at most 8 px of border and a
64 px title bar), and the viewer's framebuffer must show the change.
Then, with nothing moving, a second viewer (Tight) connects, and over a
3 s observation window neither viewer receives any FramebufferUpdate.
The Raw viewer's updates are written by oriel itself, straight from the
framebuffer; the Tight viewer's by libvncserver.
"""
import signal
import time

import harness
import vnc
from harness import Session, expect, geometry

COLOUR = (0x20, 0xb0, 0x60)
SIZE = (200, 150)
IDLE_WINDOW = 3.0


def check_rects(rects, box, what):
    expect(rects, "no update arrived for %s" % what)
    outside = [r for r in rects if not vnc.inside(r, box)]
    expect(not outside, "%s: updates outside the damaged frame %r: %r (all: %r)"
           % (what, box, outside[:5], rects[:20]))
    area = sum(r[2] * r[3] for r in rects)
    harness.log("%s: %d rects, %d pixels (frame box %d)" % (
        what, len(rects), area, box[2] * box[3]))


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=vnc.vnc_args(port)) as s:
        s.park_pointer()
        vnc.wait_listening(s, vnc.tcp(port))
        v = vnc.Viewer(s, vnc.tcp(port), name="raw", encodings="raw")
        expect(v.wait_connected() == (1024, 768), "viewer size")
        v.wait_line("frame")
        v.quiesce()

        mark = v.mark()
        client = s.spawn_colour(COLOUR, size=SIZE, title="damage",
                                app_id="org.oriel.test.damage")
        client.wait_ready(size=SIZE)
        win = s.wait_window(app_id="org.oriel.test.damage")
        rect = geometry(win)
        box = vnc.grow(rect, 8, 64, 8, 8)
        v.wait_colour(rect, COLOUR, what="the new window at the viewer")
        v.quiesce()
        check_rects(vnc.updates(v.lines_since(mark)), box, "mapping the window")

        mark = v.mark()
        client.kill(signal.SIGKILL)
        s.wait_no_window(app_id="org.oriel.test.damage")
        v.wait_colour_gone(rect, COLOUR, "the killed window to disappear")
        v.quiesce()
        check_rects(vnc.updates(v.lines_since(mark)), box, "unmapping the window")

        # Idle.
        v2 = vnc.Viewer(s, vnc.tcp(port), name="tight", encodings="tight")
        v2.wait_connected()
        v2.wait_line("frame")
        v2.quiesce()
        v.quiesce()
        marks = (v.mark(), v2.mark())
        time.sleep(IDLE_WINDOW)  # the observation window itself
        s.check_alive()
        for viewer, m in zip((v, v2), marks):
            got = [l for l in viewer.lines_since(m)
                   if l.split()[0] in ("update", "frame", "cursor", "resize")]
            expect(not got, "%s received updates on an idle screen: %r"
                   % (viewer.name, got[:10]))
            expect(viewer.alive(), "%s disconnected while idle" % viewer.name)
        # One line per viewer that had such an update: the Raw one only.
        direct = s.log_text().count("gets raw updates straight from the framebuffer")
        expect(direct == 1, "%d viewers got raw updates written by oriel, not 1 "
               "(the Raw one)" % direct)


if __name__ == "__main__":
    harness.run(main)
