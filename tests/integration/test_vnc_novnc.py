#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""noVNC in headless Chromium shows the session, from oriel's own port.

oriel serves noVNC's files (Debian's `novnc`, /usr/share/novnc) over HTTP
and RFB over WebSocket on its one VNC port.  Headless Chromium loads
http://127.0.0.1:PORT/vnc.html with autoconnect, and is driven over the
DevTools protocol (tests/browser/cdp.py): noVNC must reach the connected
state, its canvas must be the output's size and show the colour window
(within noVNC's default JPEG quality), and a second window mapped after
connecting must appear in the canvas too (liveness).
"""
import json
import sys

import harness
import vnc
from harness import NotYet, REPO, Session, expect, geometry, tool

sys.path.insert(0, str(REPO / "tests" / "browser"))
import cdp  # noqa: E402

A = (0xd0, 0x20, 0x40)
B = (0x20, 0xb0, 0x60)
TOLERANCE = 24

CANVAS = "document.querySelector('#noVNC_container canvas')"


def canvas_block(page, rect):
    """[(r, g, b)] of the canvas pixels in rect, or raise NotYet."""
    x, y, w, h = rect
    js = ("(() => { const c = %s; if (!c || !c.width) return null;"
          " const d = c.getContext('2d').getImageData(%d, %d, %d, %d).data;"
          " const out = []; for (let i = 0; i < d.length; i += 4)"
          " out.push([d[i], d[i+1], d[i+2]]); return out; })()" % (CANVAS, x, y, w, h))
    value = page.evaluate(js)
    if value is None:
        raise NotYet("no canvas yet")
    return [tuple(p) for p in value]


def wait_canvas_colour(s, page, rect, rgb, what):
    def check():
        pixels = canvas_block(page, rect)
        bad = [p for p in pixels if any(abs(p[c] - rgb[c]) > TOLERANCE for c in range(3))]
        if bad:
            raise NotYet("%d of %d pixels differ, e.g. #%s" % (
                len(bad), len(pixels), harness.colour_hex(bad[0])))
        return True
    s.wait_for(check, 30, what)


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=vnc.vnc_args(port)) as s:
        a = s.spawn_colour(A, size=(320, 240), title="novnc A", app_id="org.oriel.test.a")
        a.wait_ready(size=(320, 240))
        ra = geometry(s.wait_window(app_id="org.oriel.test.a"))
        s.park_pointer()
        vnc.wait_listening(s, vnc.tcp(port))

        url = ("http://%s:%d/vnc.html?autoconnect=1&host=%s&port=%d&encrypt=0"
               "&resize=off&path=websockify" % (vnc.LOCALHOST, port, vnc.LOCALHOST, port))
        with cdp.Chromium(s, url, chromium=tool("chromium")) as chrome:
            page = chrome.page()

            def connected():
                state = page.evaluate(
                    "({connected: !!document.documentElement && document.documentElement"
                    ".classList.contains('noVNC_connected'), status: (document.getElementById("
                    "'noVNC_status') || {}).textContent || '', href: location.href,"
                    " w: (%s || {}).width || 0, h: (%s || {}).height || 0})" % (
                        CANVAS, CANVAS))
                if not state or not state["connected"]:
                    raise NotYet("noVNC state %s" % json.dumps(state))
                return state
            state = s.wait_for(connected, 30, "noVNC to connect")
            expect((state["w"], state["h"]) == (1024, 768),
                   "noVNC canvas is %dx%d, not 1024x768" % (state["w"], state["h"]))

            inner = vnc.grow(ra, -16, -16, -16, -16)
            wait_canvas_colour(s, page, (inner[0], inner[1], 32, 32), A,
                               "window A's colour in noVNC's canvas")

            b = s.spawn_colour(B, size=(200, 150), title="novnc B",
                               app_id="org.oriel.test.b")
            b.wait_ready(size=(200, 150))
            rb = geometry(s.wait_window(app_id="org.oriel.test.b"))
            inner = vnc.grow(rb, -16, -16, -16, -16)
            wait_canvas_colour(s, page, (inner[0], inner[1], 32, 32), B,
                               "window B, mapped after connecting, in noVNC's canvas")
            page.close()


if __name__ == "__main__":
    harness.run(main)
