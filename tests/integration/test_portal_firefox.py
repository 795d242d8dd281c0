#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Firefox's getDisplayMedia, through the real portal, oriel's backend and
PipeWire, with Firefox ESR as a Wayland client of oriel.

The session runs pipewire, wireplumber, xdg-desktop-portal-oriel and
/usr/libexec/xdg-desktop-portal (tests/integration/portal.py). Firefox
(MOZ_ENABLE_WAYLAND=1, a fresh kiosk profile: tests/browser/firefox.py)
loads tests/browser/screenshare.html from a loopback HTTP server; the page
reports its state over WebDriver BiDi (script.evaluate). Firefox wants a
user gesture for getDisplayMedia, so the test clicks the page's green box
with oriel's injected pointer, found in a screenshot, as a person would.
media.navigator.permission.disabled skips Firefox's own sharing prompt
(its source chooser), so the portal's backend decides, from its policy.
Firefox is not in a Flatpak, so its app_id is empty and the policy
decides with allow-unidentified. It runs as root with its content
sandbox on; nothing needed turning off.

Asserted as a person would see it:
- under a deny policy, getDisplayMedia rejects with NotAllowedError and
  oriel has no cast;
- allowed: the track and the video frames are the output's size, frames
  arrive (requestVideoFrameCallback), a known colour window's pixels are
  in the frames at its place, and a window of a new colour mapped while
  sharing appears in them (liveness);
- stopping the track ends the portal session, and oriel's cast with it.
"""
import sys

import harness
import pipewire
import portal
from browser_share import (ALLOW, DENY, RED, cast_ids, check_live_share,
                           colour_window)
from harness import NotYet, REPO, Session, expect, expect_eq, geometry, T

sys.path.insert(0, str(REPO / "tests" / "browser"))
import firefox  # noqa: E402
import screenshare  # noqa: E402

OUTPUT = (1024, 768)
GREEN = (0x20, 0xc0, 0x40)  # the page's share button


def find_box(img, rgb):
    """The bounding box of the pixels of exactly rgb, or None."""
    xs, ys = [], []
    for (x, y), px in img.pixels((0, 0, img.width, img.height)):
        if px == rgb:
            xs.append(x)
            ys.append(y)
    if not xs:
        return None
    return (min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def click_share(s, page):
    """Click the page's green box, as a person would, and wait for what
    getDisplayMedia gave."""
    page.evaluate("share.result = null")

    def button():
        box = find_box(s.screenshot(), GREEN)
        if box is None or box[2] < 100:
            raise NotYet("no green share button on the screen: %r" % (box,))
        return box
    x, y, w, h = s.wait_for(button, T(20), "the page's share button on the screen")
    s.click(x + w // 2, y + h // 2)
    s.park_pointer()
    return s.wait_for(lambda: page.evaluate("share.result") or (_ for _ in ()).throw(
        NotYet("no result yet")), T(30), "getDisplayMedia's result after the click")


def main():
    with Session(outputs=["%dx%d" % OUTPUT]) as s:
        s.park_pointer()
        pipewire.start(s)
        p = portal.start(s, policy=DENY)
        with screenshare.serve() as base, \
                firefox.WaylandFirefox(s, base + "/screenshare.html") as ff:
            page = ff.page()
            s.wait_for(lambda: page.evaluate("typeof startShare === 'function'") or
                       (_ for _ in ()).throw(NotYet("page not loaded")), T(30),
                       "the page to load")
            # A Wayland window of oriel's, not a headless or X11 one.
            win = s.wait_window(app_id="firefox-esr", kind="wayland",
                                what="Firefox's Wayland window")
            harness.log("firefox: %r" % win)

            # Denied by the policy: Firefox rejects cleanly, no cast.
            res = click_share(s, page)
            expect(not res["ok"], "getDisplayMedia resolved under a deny policy: %r" % res)
            expect_eq(res["name"], "NotAllowedError", "the error under a deny policy")
            expect(not cast_ids(s), "a denied request created a cast")
            expect("a screen cast is denied" in p.backend.log(),
                   "the backend did not log the policy's denial")

            # A known colour on the screen, above Firefox's window.
            win_a = colour_window(s, RED, (200, 150), "red")

            p.set_policy(ALLOW)
            res = click_share(s, page)
            expect(res["ok"], "getDisplayMedia failed when allowed: %r" % res)
            settings = res["settings"]
            expect_eq((settings.get("width"), settings.get("height")), OUTPUT,
                      "the track's size")
            expect_eq(len(cast_ids(s)), 1, "oriel's casts while sharing")
            # The click raised Firefox over the red window; raise it again.
            s.orielctl("focus", win_a["id"], json=False)
            s.wait_colour(geometry(win_a), RED)
            check_live_share(s, page, OUTPUT, geometry(win_a))

            p.check_alive()
            page.close()
        expect_eq(p.stop_backend(), 0, "the backend's exit status on SIGTERM")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
