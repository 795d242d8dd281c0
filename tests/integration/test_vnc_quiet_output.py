#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A quiet session gives its two copies of the screen back; viewers see
no difference.

A Raw viewer watches a 1024x768 desktop with one colour window. Once
nothing has changed for a while, oriel logs that the output released its
render buffer and that the VNC framebuffer gave its pages back, and its
memory must have shrunk by most of each (3 MiB each at this size).

Then:
- a second viewer connects: the picture comes back from the output with
  nothing changed, so it must equal a screenshot pixel for pixel, and the
  first viewer must receive no update for it;
- once quiet again, a second window is mapped: the frame after the quiet
  spell is rendered whole into a new buffer and copied whole into the
  framebuffer, yet the watching viewer must receive only rectangles within
  the windows' frames (not the whole screen), and show both windows as a
  screenshot does.
"""
import harness
import vnc
from harness import Session, expect, geometry

FIRST = (0xd0, 0x20, 0x40)
SECOND = (0x20, 0x60, 0xd0)
OUTPUT_RELEASED = "is quiet: its render buffers are released"
FB_RELEASED = "the framebuffer's pages are given back"
BUFFER_BYTES = 1024 * 768 * 4


def status_bytes(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def wait_quiet(s, counts):
    """Until both releases were logged once more than counts says."""
    s.wait_for(lambda: s.log_text().count(OUTPUT_RELEASED) > counts[0] and
               s.log_text().count(FB_RELEASED) > counts[1],
               what="the quiet session to release its buffers")


def counts(s):
    text = s.log_text()
    return (text.count(OUTPUT_RELEASED), text.count(FB_RELEASED))


def no_updates(viewer, mark, what):
    got = [l for l in viewer.lines_since(mark) if l.split()[0] in ("update", "frame")]
    expect(not got, "%s: the watching viewer received %r" % (what, got[:5]))


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=vnc.vnc_args(port), debug=True) as s:
        exclude = s.park_pointer()
        vnc.wait_listening(s, vnc.tcp(port))
        v = vnc.Viewer(s, vnc.tcp(port), name="raw", encodings="raw")
        v.wait_connected()
        v.wait_line("frame")

        first = s.spawn_colour(FIRST, size=(320, 240), title="first",
                               app_id="org.oriel.test.quiet1")
        first.wait_ready(size=(320, 240))
        rect1 = geometry(s.wait_window(app_id="org.oriel.test.quiet1"))
        v.wait_colour(rect1, FIRST, what="the first window at the viewer")
        before = counts(s)
        pid = s.oriel.pid
        busy = (status_bytes(pid, "RssShmem"), status_bytes(pid, "RssAnon"))

        wait_quiet(s, before)
        quiet = (status_bytes(pid, "RssShmem"), status_bytes(pid, "RssAnon"))
        harness.log("oriel's shared memory %d -> %d KiB, anonymous %d -> %d KiB" % (
            busy[0] // 1024, quiet[0] // 1024, busy[1] // 1024, quiet[1] // 1024))
        for what, b, q in (("shared memory (the output's buffer)", busy[0], quiet[0]),
                           ("anonymous memory (the VNC framebuffer)", busy[1], quiet[1])):
            expect(b - q >= BUFFER_BYTES * 3 // 4,
                   "oriel's %s went from %d to %d KiB: a %d KiB copy of the "
                   "screen was not given back" % (what, b // 1024, q // 1024,
                                                  BUFFER_BYTES // 1024))

        # A new viewer after the quiet spell: the picture comes back unchanged.
        v.quiesce()
        mark = v.mark()
        shot = s.screenshot()
        fresh = vnc.snapshot(s, vnc.tcp(port), encodings="raw")
        vnc.expect_same_pixels(fresh, shot, exclude=exclude,
                               what="a new viewer's framebuffer after the quiet spell")
        v.quiesce()
        no_updates(v, mark, "a second viewer connecting")

        # A change after the next quiet spell.
        wait_quiet(s, counts(s))
        v.quiesce()
        mark = v.mark()
        second = s.spawn_colour(SECOND, size=(160, 120), title="second",
                                app_id="org.oriel.test.quiet2")
        second.wait_ready(size=(160, 120))
        rect2 = geometry(s.wait_window(app_id="org.oriel.test.quiet2"))
        v.wait_colour(rect2, SECOND, what="the second window at the viewer")
        v.quiesce()
        # The new window's frame, and the first one's title bar as it loses focus.
        box2 = vnc.grow(rect2, 8, 64, 8, 8)
        box1 = vnc.grow(rect1, 8, 64, 8, 8)
        rects = vnc.updates(v.lines_since(mark))
        outside = [r for r in rects if not vnc.inside(r, box2) and not vnc.inside(r, box1)]
        expect(rects and not outside,
               "after the quiet spell the viewer got rectangles outside the two "
               "windows' frames %r, %r: %r" % (box2, box1, outside[:5]))
        vnc.expect_same_pixels(v.framebuffer(), s.screenshot(), exclude=exclude,
                               what="the watching viewer's framebuffer")


if __name__ == "__main__":
    harness.run(main)
