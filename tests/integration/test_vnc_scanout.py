#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A fullscreen X app is shown to viewers straight from its own buffer.

With the pixman renderer, a fullscreen window that covers the output is
scanned out (wlroots logs "Direct scan-out enabled") instead of being
composited, and the VNC server copies from the client's buffer. This
test drives that path with a fullscreen xterm:

- the viewer sees xterm's background over the whole output;
- typing from the viewer changes xterm's pixels, and the updates that
  carry the change cover a small part of the screen (the scene's damage,
  not the whole buffer);
- a dialog of xterm's, shown above it, ends scan-out; the viewer shows
  it, and once it is killed the fullscreen xterm again, scanned out;
- idle, with the fullscreen window still, oriel sends no update and
  neither spends CPU nor wakes up (a scanned-out buffer is not committed
  again every frame).
"""
import signal

import harness
import vnc
from harness import NotYet, Session, expect, tool
from xclient import xclient_path

SIZE = (800, 600)
BACKGROUND = (0x20, 0x40, 0x90)
FOREGROUND = (0xff, 0xff, 0x00)
OVERLAY = (0xe0, 0x30, 0x30)
IDLE_WINDOW = 4.0
MAX_CPU = 0.02
MAX_WAKEUPS = 20
SCANOUT_ON = "Direct scan-out enabled"


def scanout_count(s):
    return s.log_text().count(SCANOUT_ON)


def wait_scanouts(s, n, what):
    def seen():
        count = scanout_count(s)
        if count < n:
            raise NotYet("scan-out started %d times" % count)
        return count
    return s.wait_for(seen, what=what)


def main():
    port = vnc.free_port()
    whole = (0, 0) + SIZE
    # Debug logging: wlroots says "Direct scan-out enabled" only then.
    with Session(outputs=["%dx%d" % SIZE], args=vnc.vnc_args(port), debug=True) as s:
        s.park_pointer()
        xterm = s.spawn_x([tool("xterm"), "-fullscreen", "-bg", "#" + harness.colour_hex(BACKGROUND),
                           "-fg", "#" + harness.colour_hex(FOREGROUND), "-fa", "Monospace",
                           "-fs", "24", "-title", "scanout"])
        s.wait_window(app_id="XTerm", kind="x11",
                      where=lambda w: (w["width"], w["height"]) == SIZE,
                      what="xterm fullscreen at the output's size")
        wait_scanouts(s, 1, "the fullscreen xterm to be scanned out")

        vnc.wait_listening(s, vnc.tcp(port))
        v = vnc.Viewer(s, vnc.tcp(port), name="raw", encodings="raw")
        expect(v.wait_connected() == SIZE, "viewer size")

        def mostly_background(img):
            n = img.count_colour(whole, BACKGROUND, tolerance=8)
            if n < SIZE[0] * SIZE[1] * 0.9:
                raise NotYet("%d background pixels of %d: %s" % (
                    n, SIZE[0] * SIZE[1], img.describe(whole)))
            return n
        v.wait_framebuffer(mostly_background, what="xterm's background at the viewer")
        v.quiesce()

        # Typing: xterm draws the text; only that part of the screen travels.
        mark = v.mark()
        v.type("WWWWWWWW")

        def text_drawn(img):
            n = img.count_colour(whole, FOREGROUND, tolerance=40)
            if n < 200:
                raise NotYet("%d text pixels" % n)
            return n
        v.wait_framebuffer(text_drawn, what="the typed text at the viewer")
        v.quiesce()
        rects = vnc.updates(v.lines_since(mark))
        expect(rects, "no update carried the typed text")
        area = sum(r[2] * r[3] for r in rects)
        harness.log("typing: %d rects, %d pixels (screen %d)" % (len(rects), area, SIZE[0] * SIZE[1]))
        expect(area <= SIZE[0] * SIZE[1] // 4,
               "typing 8 characters sent %d pixels of %d: %r" % (area, SIZE[0] * SIZE[1], rects[:10]))
        expect(scanout_count(s) == 1, "scan-out stopped while typing")

        # A window on top ends scan-out; killing it starts it again.
        # A dialog of xterm's: oriel keeps it above its fullscreen parent.
        top = s.spawn_x([xclient_path(), "--title", "overlay", "--class", "Overlay",
                         "--size", "200x150", "--colour", harness.colour_hex(OVERLAY),
                         "--transient-for", str(s.wait_x_window("XTerm"))])
        win = s.wait_window(app_id="Overlay", kind="x11",
                            where=lambda w: w["width"] == 200 and w["height"] == 150)
        rect = (win["x"], win["y"], 200, 150)
        v.wait_colour(rect, OVERLAY, what="the overlay window at the viewer")
        top.kill(signal.SIGKILL)
        s.wait_no_window(app_id="Overlay")
        v.wait_colour_gone(rect, OVERLAY, "the killed overlay to disappear")
        wait_scanouts(s, 2, "scan-out to start again")
        v.wait_framebuffer(mostly_background, what="xterm again at the viewer")
        v.quiesce()

        # Idle: a still fullscreen window costs nothing.
        mark = v.mark()
        cpu, wakeups = harness.idle_cost(s.oriel.pid, IDLE_WINDOW)
        s.check_alive()
        harness.log("idle fullscreen: %.2f%% CPU, %d wakeups" % (100 * cpu, wakeups))
        got = [l for l in v.lines_since(mark) if l.split()[0] in ("update", "frame")]
        expect(not got, "updates on an idle fullscreen screen: %r" % got[:5])
        expect(cpu < MAX_CPU, "oriel used %.2f%% CPU idle with a fullscreen window"
               % (100 * cpu))
        expect(wakeups < MAX_WAKEUPS, "oriel woke up %d times in %.0fs idle with a "
               "fullscreen window (bound %d)" % (wakeups, IDLE_WINDOW, MAX_WAKEUPS))
        expect(xterm.alive(), "xterm exited")


if __name__ == "__main__":
    harness.run(main)
