# SPDX-License-Identifier: MIT
"""What the browser screen-sharing tests (test_portal_chromium.py,
test_portal_firefox.py) check once the page shares the screen, on
tests/browser/screenshare.html's sample() and share state:

    rect_a = red_window(s)                 # a known colour on the screen
    ... the browser's getDisplayMedia resolves ...
    check_live_share(s, page, OUTPUT, rect_a)

page is anything with evaluate(expression) (cdp.Page, bidi.Page).
"""
import json

import harness
from harness import NotYet, expect, expect_eq, geometry, T

RED = (0xd0, 0x20, 0x30)
BLUE = (0x20, 0x40, 0xe0)
TOLERANCE = 24  # video encoding/colour conversion in the browsers' paths
ALLOW = "[screencast]\ndefault = deny\nallow-unidentified = true\n"
DENY = "[screencast]\ndefault = deny\n"


def cast_ids(s):
    return [c["id"] for c in json.loads(s.orielctl("cast", "list", "--json", json=False))]


def colour_window(s, rgb, size, name):
    """A window of one colour on the screen; returns its listing."""
    app_id = "org.oriel.test." + name
    c = s.spawn_colour(rgb, size=size, title=name, app_id=app_id)
    c.wait_ready(size=size)
    win = s.wait_window(app_id=app_id)
    s.wait_colour(geometry(win), rgb)
    return win


def wait_pixels(s, page, rect, rgb, what):
    x, y, w, h = rect

    def check():
        st = page.evaluate("sample(%d, %d, %d, %d)" % (x, y, w, h))
        if not st or not st.get("pixels"):
            raise NotYet("no video frame yet: %r" % st)
        bad = [p for p in st["pixels"]
               if any(abs(p[i] - rgb[i]) > TOLERANCE for i in range(3))]
        if bad:
            raise NotYet("%d of %d pixels differ, e.g. #%s" % (
                len(bad), len(st["pixels"]), harness.colour_hex(bad[0])))
        return st
    return s.wait_for(check, T(20), what)


def inner(rect, margin=12, size=24):
    return (rect[0] + margin, rect[1] + margin, size, size)


def check_live_share(s, page, output, rect_a):
    """Frames of the output's size arrive, the red window at rect_a is in
    them, a window mapped now arrives in them (liveness), and stopping the
    track ends oriel's cast."""
    def frames_arrive():
        st = page.evaluate("sample(0, 0, 1, 1)")
        if (st["videoWidth"], st["videoHeight"]) != output:
            raise NotYet("video is %dx%d" % (st["videoWidth"], st["videoHeight"]))
        if st["frames"] < 3:
            raise NotYet("%d frame callbacks" % st["frames"])
        return st
    st = s.wait_for(frames_arrive, T(20), "video frames of the output's size")
    expect_eq((st["meta"]["width"], st["meta"]["height"]), output,
              "requestVideoFrameCallback's frame size")

    wait_pixels(s, page, inner(rect_a), RED, "the red window in the captured frames")

    before = page.evaluate("share.frames")
    rect_b = geometry(colour_window(s, BLUE, (160, 120), "blue"))
    wait_pixels(s, page, inner(rect_b), BLUE,
                "a window mapped while sharing, in the captured frames")
    expect(page.evaluate("share.frames") > before, "no new frames after the change")

    page.evaluate("stopShare()")

    def no_casts():
        ids = cast_ids(s)
        if ids:
            raise NotYet("casts %r" % ids)
        return True
    s.wait_for(no_casts, T(15), "the cast to end when the page stops sharing")
