#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The cursor plane: the cursor travels as metadata, never in the frames.

oriel's headless outputs take wlroots' cursor on a cursor plane
(set_cursor/move_cursor), so frames carry no cursor pixels.  The VNC
server turns the plane's image into a rich cursor:

- a viewer in `watch` mode that asks for the cursor pseudo-encodings gets
  a `cursor` line with a nonzero size and visible pixels once the pointer
  moves over an X window (xterm's own cursor, through Xwayland);
- an `orielctl screenshot` and the framebuffer of a cursor-capable viewer
  are identical around the pointer, with and without the pointer there;
- a viewer without the cursor encodings gets the cursor drawn into its
  framebuffer by libvncserver, at the pointer.
"""
import time

import harness
import vnc
from harness import NotYet, Session, T, expect, tool


def cursor_lines(text):
    out = []
    for line in text.splitlines():
        if line.startswith("cursor "):
            _, w, h, hx, hy, opaque, digest = line.split()
            out.append((int(w), int(h), int(hx), int(hy), int(opaque), digest))
    return out


def main():
    port = vnc.free_port()
    with Session(outputs=["800x600"], args=vnc.vnc_args(port)) as s:
        vnc.wait_listening(s, vnc.tcp(port))
        s.spawn_x([tool("xterm"), "-geometry", "40x10+300+200", "-title", "vnc2 cursor"])
        win = s.wait_window(app_id="XTerm", kind="x11",
                            where=lambda w: w["width"] > 0 and w["height"] > 0)
        # Park the pointer far from where we look, on the bare desktop.
        s.orielctl("pointer", "move", 20, 20)
        region = (60, 60, 120, 120)
        shot_before = s.screenshot()
        fb_before = vnc.snapshot(s, vnc.tcp(port), encodings="raw")

        watch = s.spawn(vnc.viewer_argv(vnc.tcp(port), ["watch", int(T(20))],
                                        encodings="raw"), "watch")

        def connected():
            if "connected " not in watch.log():
                raise NotYet("the watching viewer is not connected yet")
            return True
        s.wait_for(connected, what="the watching viewer to connect")
        seen = len(cursor_lines(watch.log()))

        cx, cy = win["x"] + win["width"] // 2, win["y"] + win["height"] // 2

        def got_cursor():
            # Keep moving: the X client sets its cursor on pointer enter.
            s.orielctl("pointer", "move", cx, cy)
            s.orielctl("pointer", "move", cx + 2, cy + 1)
            lines = cursor_lines(watch.log())[seen:]
            for c in lines:
                w, h, hx, hy, opaque, _ = c
                if w > 0 and h > 0 and opaque > 0:
                    return c
            raise NotYet("cursor lines so far: %r" % lines)
        c = s.wait_for(got_cursor, what="a nonzero rich cursor over xterm")
        w, h, hx, hy, _, _ = c
        expect(0 <= hx < w and 0 <= hy < h, "hotspot outside the cursor: %r" % (c,))
        harness.log("cursor over xterm: %r" % (c,))

        # The pointer over the bare desktop region we compare.
        px, py = region[0] + 30, region[1] + 30
        s.orielctl("pointer", "move", px, py)
        time.sleep(T(0.5))
        shot_after = s.screenshot()
        bad, where = vnc.compare(shot_before, shot_after, region)
        expect(bad == 0, "the screenshot has cursor pixels: %d pixels changed "
               "around the pointer, first %r" % (bad, where))
        fb_after = vnc.snapshot(s, vnc.tcp(port), encodings="raw")
        bad, where = vnc.compare(fb_before, fb_after, region)
        expect(bad == 0, "a cursor-capable viewer's framebuffer has cursor pixels: "
               "%d changed around the pointer, first %r" % (bad, where))

        # Viewers without the pseudo-encodings see it drawn by libvncserver.
        plain = vnc.snapshot(s, vnc.tcp(port), encodings="raw", cursor=False)
        bad, where = vnc.compare(fb_before, plain, (px - 2, py - 2, 24, 24))
        expect(bad > 0, "a viewer without cursor encodings sees no cursor at %d,%d"
               % (px, py))
        watch.wait(timeout=30)


if __name__ == "__main__":
    harness.run(main)
