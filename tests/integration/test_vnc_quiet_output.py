#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A quiet output gives its render buffer back; viewers see no difference.

A Raw viewer watches a 1024x768 desktop with one colour window. Once the
output has had no new frame for a while, oriel says so in its log and its
shared memory must have shrunk by most of the 3 MiB buffer the output
rendered into. Then a second window is mapped: the frame after the quiet
spell is rendered whole into a new buffer, yet the viewer must receive
only rectangles within the windows' frames (not the whole screen), and
show both windows;
a fresh viewer's framebuffer must equal a screenshot pixel for pixel.
"""
import harness
import vnc
from harness import Session, expect, geometry

FIRST = (0xd0, 0x20, 0x40)
SECOND = (0x20, 0x60, 0xd0)
RELEASED = "is quiet: its render buffers are released"
BUFFER_BYTES = 1024 * 768 * 4


def rss_shmem(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("RssShmem:"):
                return int(line.split()[1]) * 1024
    return 0


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
        released_before = s.log_text().count(RELEASED)
        busy = rss_shmem(s.oriel.pid)
        harness.log("oriel's shared memory with the buffer: %d KiB" % (busy // 1024))

        s.wait_for(lambda: s.log_text().count(RELEASED) > released_before,
                   what="the quiet output to release its buffer")
        quiet = rss_shmem(s.oriel.pid)
        harness.log("oriel's shared memory after the release: %d KiB" % (quiet // 1024))
        expect(busy - quiet >= BUFFER_BYTES * 3 // 4,
               "oriel's shared memory went from %d to %d KiB: the output's %d KiB "
               "buffer was not given back" % (busy // 1024, quiet // 1024,
                                              BUFFER_BYTES // 1024))

        v.quiesce()
        mark = v.mark()
        second = s.spawn_colour(SECOND, size=(160, 120), title="second",
                                app_id="org.oriel.test.quiet2")
        second.wait_ready(size=(160, 120))
        rect2 = geometry(s.wait_window(app_id="org.oriel.test.quiet2"))
        v.wait_colour(rect2, SECOND, what="the second window at the viewer")
        v.quiesce()
        # The new window's frame, and the first one's title bar as it loses focus.
        box = vnc.grow(rect2, 8, 64, 8, 8)
        box1 = vnc.grow(rect1, 8, 64, 8, 8)
        rects = vnc.updates(v.lines_since(mark))
        outside = [r for r in rects if not vnc.inside(r, box) and not vnc.inside(r, box1)]
        expect(rects and not outside,
               "after the quiet spell the viewer got rectangles outside the two "
               "windows' frames %r, %r: %r" % (box, box1, outside[:5]))
        # The second window may cover part of the first: count what is left.
        covered = harness.intersect(rect1, box)
        want = rect1[2] * rect1[3] - (covered[2] * covered[3] if covered else 0)
        got = v.framebuffer().count_colour(rect1, FIRST)
        expect(got >= want, "the first window lost pixels at the viewer: %d of %d"
               % (got, want))

        shot = s.screenshot()
        fresh = vnc.snapshot(s, vnc.tcp(port), encodings="raw")
        vnc.expect_same_pixels(fresh, shot, exclude=exclude,
                               what="a new viewer's framebuffer after the quiet spell")
        vnc.expect_same_pixels(v.framebuffer(), shot, exclude=exclude,
                               what="the watching viewer's framebuffer")


if __name__ == "__main__":
    harness.run(main)
