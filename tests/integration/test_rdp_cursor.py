#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The cursor reaches xfreerdp as a pointer shape, not in the frames.

xfreerdp's pointer is moved (xdotool in its Xvfb) over the empty desktop
of the session: xfreerdp's X cursor (read with XFixes) becomes oriel's
cursor, a shape with opaque pixels and its hotspot inside. Over xterm's
text area (the I-beam cursor, set through Xwayland) it becomes another
shape. Over a colour window the frames stay that colour where the
pointer is: the cursor is not drawn into them.
"""
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect, tool
from test_rdp_pixels import COLOUR, check_window_shows

PASSWORD = "pointer-Pass-1618"


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-cursor-") as d:
        users = vnc.write_users_file(Path(d), [("pointer", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["1024x768"], args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            s.colour_window_at(COLOUR, (300, 200), (240, 160), "green", "org.oriel.test.g")
            s.spawn_x([tool("xterm"), "-geometry", "60x10+600+400", "-title", "cursor"])
            term = s.wait_window(app_id="XTerm", kind="x11",
                                 where=lambda w: w["width"] > 0 and w["height"] > 0)
            rdp.wait_listening(s, port)
            with rdp.client_in_xvfb(s, port, "pointer", PASSWORD, ["/size:1024x768"]) \
                    as (xvfb, client):
                x0, y0, _, _, wid = client.window()
                check_window_shows(s, xvfb, client, (240, 160), (300, 200))

                def cursor_at(px, py, differs_from=None):
                    def shape():
                        xvfb.xdotool("mousemove", "--sync", x0 + px, y0 + py)
                        c = xvfb.cursor()
                        w, h, hx, hy, opaque, digest = c
                        if opaque == 0 or (differs_from and digest == differs_from[5]):
                            raise NotYet("xfreerdp's cursor is %r" % (c,))
                        return c
                    return s.wait_for(shape, what="xfreerdp's cursor at %d,%d" % (px, py))

                # The X server's own cursor before anything: not oriel's.
                before = xvfb.cursor()
                desktop = cursor_at(100, 100, differs_from=before)
                w, h, hx, hy, opaque, _ = desktop
                expect(0 <= hx < w and 0 <= hy < h, "hotspot outside the cursor %r" % (desktop,))
                harness.log("desktop cursor %r" % (desktop,))
                beam = cursor_at(term["x"] + 60, term["y"] + term["height"] // 2,
                                 differs_from=desktop)
                harness.log("xterm cursor %r" % (beam,))

                # Over the colour window the frames show only the window.
                cursor_at(390, 260)
                img = xvfb.screen()
                rect = (x0 + 360, y0 + 230, 60, 60)
                n = img.count_colour(rect, COLOUR, tolerance=12)
                expect(n == 3600, "the frames around the pointer are not only the "
                       "window's colour: %s" % img.describe(rect))


if __name__ == "__main__":
    harness.run(main)
