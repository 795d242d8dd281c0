#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A viewer's SetDesktopSize resizes the output, and every viewer follows.

Viewers A and B are connected to a 1024x768 session.  A asks for 800x600
(SetDesktopSize): both A and B must get a framebuffer resize to 800x600,
`orielctl outputs` and `xrandr` inside the session must show it, and a
fresh snapshot is 800x600.  Then `orielctl output-size` (server side) to
1280x720 reaches both viewers the same way.
"""
import re

import harness
import vnc
from harness import NotYet, Session, expect_eq, tool


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=vnc.vnc_args(port)) as s:
        name = s.output()["name"]
        vnc.wait_listening(s, vnc.tcp(port))
        a = vnc.Viewer(s, vnc.tcp(port), name="a", encodings="raw")
        b = vnc.Viewer(s, vnc.tcp(port), name="b", encodings="tight")
        expect_eq(a.wait_connected(), (1024, 768), "A's first size")
        expect_eq(b.wait_connected(), (1024, 768), "B's first size")
        a.wait_line("frame")
        b.wait_line("frame")

        for size, how in (((800, 600), "viewer"), ((1280, 720), "orielctl")):
            marks = (a.mark(), b.mark())
            if how == "viewer":
                a.resize(*size)
            else:
                s.orielctl("output-size", name, "%dx%d" % size, json=False)
            want = "resize %d %d" % size
            for viewer, m in zip((a, b), marks):
                viewer.wait_line(lambda l: l == want, since=m,
                                 what="%r after the %s resize" % (want, how))
            s.wait_for(lambda: (s.output()["width"], s.output()["height"]) == size,
                       what="orielctl outputs to show %dx%d" % size)

            def xrandr():
                out = s.x_tool(tool("xrandr"), "--current").stdout
                m = re.search(r"current (\d+) x (\d+)", out)
                if not m or (int(m.group(1)), int(m.group(2))) != size:
                    raise NotYet("xrandr: %s" % out.splitlines()[:1])
                return True
            s.wait_for(xrandr, what="xrandr to show %dx%d" % size)
            img = vnc.snapshot(s, vnc.tcp(port), encodings="raw")
            expect_eq((img.width, img.height), size, "a new viewer's framebuffer size")
            for viewer in (a, b):
                expect_eq(viewer.alive(), True, "%s still connected" % viewer.name)


if __name__ == "__main__":
    harness.run(main)
