#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Chromium's getDisplayMedia, through the real portal, oriel's backend and
PipeWire, with Chromium as a Wayland client of oriel.

The session runs pipewire, wireplumber, xdg-desktop-portal-oriel and
/usr/libexec/xdg-desktop-portal (tests/integration/portal.py). Chromium
(--ozone-platform=wayland --use-fake-ui-for-media-stream) loads
tests/browser/screenshare.html from a loopback HTTP server; the page is
driven over the DevTools protocol. Chromium is not sandboxed, so its
app_id is empty and the policy decides with allow-unidentified.

Chromium resolves getDisplayMedia even when the portal fails (a 2x2 video,
no frames), so this asserts what a person would see:
- under a deny policy, getDisplayMedia rejects with NotAllowedError and
  oriel has no cast;
- allowed: the track and the video frames are the output's size, frames
  arrive (requestVideoFrameCallback), a known colour window's pixels are
  in the frames at its place, and a window of a new colour mapped while
  sharing appears in them (liveness);
- stopping the track ends the portal session, and oriel's cast with it.
"""
import sys
import time

import harness
import pipewire
import portal
from browser_share import (ALLOW, DENY, RED, cast_ids, check_live_share,
                           colour_window)
from harness import NotYet, REPO, Session, expect, expect_eq, geometry, tool, T

sys.path.insert(0, str(REPO / "tests" / "browser"))
import screenshare  # noqa: E402

OUTPUT = (1024, 768)
DENIED_WATCH = 3.0  # seconds to watch a denied share for frames


def main():
    with Session(outputs=["%dx%d" % OUTPUT]) as s:
        s.park_pointer()
        pipewire.start(s)
        p = portal.start(s, policy=DENY)
        with screenshare.serve() as base, \
                screenshare.WaylandChromium(s, base + "/screenshare.html",
                                            chromium=tool("chromium")) as chrome:
            page = chrome.page()
            s.wait_for(lambda: page.evaluate("typeof startShare === 'function'") or
                       (_ for _ in ()).throw(NotYet("page not loaded")), T(30),
                       "the page to load")

            # Denied by the policy: NotAllowedError, no cast.
            # Chromium 156 may resolve the promise anyway (the false pass of
            # the browser note); then no real frame may ever arrive.
            res = page.evaluate("startShare()", timeout=T(30))
            expect(res is not None, "startShare() returned nothing")
            if res["ok"]:
                time.sleep(DENIED_WATCH)
                st = page.evaluate("sample(0, 0, 1, 1)")
                harness.log("denied share resolved; then: %r" % {
                    k: st[k] for k in ("videoWidth", "videoHeight", "frames", "ended")})
                expect((st["videoWidth"], st["videoHeight"]) != OUTPUT or st["frames"] == 0,
                       "real frames arrived under a deny policy: %r" % st)
                page.evaluate("stopShare()")
            else:
                expect_eq(res["name"], "NotAllowedError", "the error under a deny policy")
            expect(not cast_ids(s), "a denied request created a cast")
            expect("a screen cast is denied" in p.backend.log(),
                   "the backend did not log the policy's denial")

            # A known colour on the screen, above Chromium's window.
            rect_a = geometry(colour_window(s, RED, (200, 150), "red"))

            p.set_policy(ALLOW)
            res = page.evaluate("startShare()", timeout=T(30))
            expect(res and res["ok"], "getDisplayMedia failed when allowed: %r" % res)
            settings = res["settings"]
            expect_eq((settings.get("width"), settings.get("height")), OUTPUT,
                      "the track's size")
            expect_eq(len(cast_ids(s)), 1, "oriel's casts while sharing")

            check_live_share(s, page, OUTPUT, rect_a)
            p.check_alive()
            page.close()
            # Chromium times its frames by oriel's presentation feedback,
            # and stops trusting it when it breaks the protocol's rules.
            buggy = chrome.client.log().count("buggy presentation feedback")
            expect(buggy == 0, "Chromium logged buggy presentation feedback %d "
                   "times" % buggy)
        expect_eq(p.stop_backend(), 0, "the backend's exit status on SIGTERM")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
