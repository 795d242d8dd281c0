#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An X app cast like any window: an xterm prints a counter twenty times a
second.
- An output cast and a window cast of it both deliver frames while it
  counts, and no two frames in a row are the same picture: a frame is only
  made for a change.
- When the counting stops, no frame comes for the rest of the window
  watched, and oriel spends next to no CPU over 10 s (read from /proc,
  with a generous bound: 0.15 s of CPU).
"""
import time

import harness
import pipewire
from harness import NotYet, Session, expect, geometry, tool

IDLE_WATCH = 10.0
IDLE_CPU_MAX_S = 0.15


def region_bytes(img, rect):
    return b"".join(bytes(px) for _, px in img.pixels(rect))


def counting_frames(s, c, rect, what, n=8):
    """n frames in a row of the counting xterm; none repeats the last."""
    start = len(c.frames())

    def enough():
        fs = c.frames()[start:]
        if len(fs) < n:
            raise NotYet("%d frames" % len(fs))
        return fs[:n]
    fs = s.wait_for(enough, harness.T(15), what)
    pictures = [region_bytes(c.image(f["seq"]), rect) for f in fs]
    repeats = [fs[i]["seq"] for i in range(1, len(fs)) if pictures[i] == pictures[i - 1]]
    expect(not repeats, "%s: frames %r repeat the frame before" % (what, repeats))
    expect(len(set(pictures)) == len(pictures), "%s: a picture came twice" % what)


def main():
    with Session(outputs=["800x600"]) as s:
        s.park_pointer()
        pipewire.start(s)
        stop = s.tmp / "stop"
        s.spawn_x([tool("xterm"), "-geometry", "30x4+40+40", "-title", "counter", "-e",
                   "sh", "-c", 'i=0; while [ ! -e "$0" ]; do i=$((i+1)); '
                   'printf "\\r%08d" $i; sleep 0.05; done; exec sleep 1000', str(stop)])
        win = s.wait_window(app_id="XTerm", kind="x11",
                            where=lambda w: w["width"] > 0 and w["height"] > 0)
        rect = geometry(win)
        out = s.output()["name"]

        ocast = pipewire.Cast(s, out, cursor="hidden")
        oc = pipewire.Consumer(s, ocast.node)
        oc.wait_format()
        counting_frames(s, oc, rect, "the output cast")

        wcast = pipewire.Cast(s, window=win["id"], cursor="hidden")
        wc = pipewire.Consumer(s, wcast.node)
        w, h = wc.wait_format()[:2]
        expect((w, h) == (rect[2], rect[3]), "the window cast is %dx%d, the window %r" % (
            w, h, rect))
        counting_frames(s, wc, (0, 0, w, h), "the window cast")

        # Idle: the counter stops; after the last frame, nothing.
        stop.touch()

        def settled():
            n = (len(oc.frames()), len(wc.frames()))
            time.sleep(0.5)
            if (len(oc.frames()), len(wc.frames())) != n:
                raise NotYet("frames still coming")
            return n
        n = s.wait_for(settled, harness.T(10), "the counter to stop")
        ticks = harness.proc_cpu_ticks(s.oriel.pid)
        time.sleep(IDLE_WATCH)
        used = (harness.proc_cpu_ticks(s.oriel.pid) - ticks) / harness.os.sysconf("SC_CLK_TCK")
        expect((len(oc.frames()), len(wc.frames())) == n,
               "frames on an idle xterm: %r then %r" % (n, (len(oc.frames()), len(wc.frames()))))
        expect(used <= IDLE_CPU_MAX_S, "oriel used %.2f s of CPU in %.0f s with two idle casts"
               % (used, IDLE_WATCH))
        harness.log("idle: oriel used %.2f s of CPU over %.0f s" % (used, IDLE_WATCH))
        expect(ocast.alive() and wcast.alive(), "both casts still run")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
