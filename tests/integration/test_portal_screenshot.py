#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Screenshot portal (Screenshot and PickColor) end to end, through the
real frontend (/usr/libexec/xdg-desktop-portal 1.16) and a scripted client
of the public org.freedesktop.portal.Screenshot API (portal_client.py).

- Two colour windows at known places. With the [screenshot] policy
  allowing unidentified callers, Screenshot answers a file:// URI of a
  private PNG under $XDG_RUNTIME_DIR/oriel/screenshots/ that shows the
  whole 640x480 layout with both windows' pixels (an interactive request
  has the person choose: test_portal_screenshot_interactive.py).
- PickColor with the pointer over each window answers that window's
  colour as doubles in 0..1.
- Denied by the policy file (re-read at each request): the response is
  not 0, no URI, no colour, and no new file is written.
- With "ask", oriel's prompt decides: Deny clicked (Screenshot) or Escape
  (PickColor), or nobody answering within prompt-timeout, refuse the same
  way. Allow clicked answers a PNG that shows both windows and not the
  prompt; PickColor allowed with Return reads the window under the
  pointer.
- A direct caller other than the frontend is refused.
"""
import os
import stat
import urllib.parse

import harness
import portal
import prompt
from harness import Session, expect, expect_eq, tool

RED = (0xd0, 0x20, 0x30)
BLUE = (0x30, 0x50, 0xe0)
RED_POS, RED_SIZE = (60, 50), (200, 150)
BLUE_POS, BLUE_SIZE = (380, 260), (160, 120)
ALLOW = "[screenshot]\ndefault = deny\nallow-unidentified = true\n"
DENY = "[screenshot]\ndefault = deny\n[screencast]\nallow = *\n"
ASK = "[screenshot]\ndefault = ask\n"


def shots(s):
    d = s.runtime_dir / "oriel" / "screenshots"
    return sorted(p.name for p in d.iterdir()) if d.is_dir() else []


def take(s, *args, answer=None):
    """A Screenshot through the portal; answer(img) answers the prompt."""
    if answer:
        c = portal.Client(s, "--screenshot", *args)
        answer(prompt.wait_shown(s, "the prompt for the Screenshot"))
        st = c.wait_step("Screenshot")
    else:
        st = portal.one_shot(s, "Screenshot", "--screenshot", *args)
    expect_eq((st.get("step"), st.get("response")), ("Screenshot", 0),
              "Screenshot's response")
    uri = st["results"].get("uri", "")
    expect(uri.startswith("file:///"), "Screenshot's uri %r" % uri)
    path = urllib.parse.unquote(uri[len("file://"):])
    expect_eq(os.path.dirname(path), str(s.runtime_dir / "oriel" / "screenshots"),
              "the screenshot's folder")
    mode = stat.S_IMODE(os.stat(path).st_mode)
    expect_eq(oct(mode), oct(0o600), "the screenshot file's mode")
    return harness.read_png(path)


def pick(s, x, y, key=None):
    """PickColor at x, y; with key, the prompt is answered by that key."""
    s.pointer_move(x, y)
    if key:
        c = portal.Client(s, "--pick-color")
        prompt.wait_shown(s, "the prompt for PickColor")
        s.key_sym(key)
        st = c.wait_step("PickColor")
    else:
        st = portal.one_shot(s, "PickColor", "--pick-color")
    expect_eq((st.get("step"), st.get("response")), ("PickColor", 0), "PickColor's response")
    colour = st["results"].get("color")
    expect(isinstance(colour, list) and len(colour) == 3 and
           all(0.0 <= c <= 1.0 for c in colour), "PickColor's colour %r" % (colour,))
    return tuple(round(c * 255) for c in colour)


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        s.colour_window_at(RED, RED_SIZE, RED_POS, "red", "org.oriel.test.red")
        s.colour_window_at(BLUE, BLUE_SIZE, BLUE_POS, "blue", "org.oriel.test.blue")
        red = RED_POS + RED_SIZE
        blue = BLUE_POS + BLUE_SIZE
        s.wait_colour(red, RED)
        s.wait_colour(blue, BLUE)

        p = portal.start(s, policy=ALLOW)
        img = take(s)
        expect_eq((img.width, img.height), (640, 480), "the screenshot's size")
        for rect, rgb in ((red, RED), (blue, BLUE)):
            bad = img.first_mismatch(rect, rgb, tolerance=2)
            expect(bad is None, "the screenshot at %r: %r (%s)" % (
                rect, bad, img.describe(rect)))
        expect_eq(len(shots(s)), 1, "screenshots written")

        for rect, rgb in ((red, RED), (blue, BLUE)):
            got = pick(s, rect[0] + rect[2] // 2, rect[1] + rect[3] // 2)
            expect(all(abs(g - w) <= 2 for g, w in zip(got, rgb)),
                   "PickColor over %r: #%s, want #%s" % (
                       rect, harness.colour_hex(got), harness.colour_hex(rgb)))

        # Denied: no URI, no colour, no file.
        before = shots(s)
        p.set_policy(DENY)
        for step, arg in (("Screenshot", "--screenshot"), ("PickColor", "--pick-color")):
            st = portal.one_shot(s, step, arg)
            expect(st.get("step") == step and st.get("response") in (1, 2),
                   "%s under %r: %r" % (step, DENY, st))
            expect(not st.get("results"), "results of a refused %s: %r" % (step, st))
        expect_eq(shots(s), before, "screenshots after refused requests")

        # Asked, and refused in the prompt: Deny, Escape, or nobody in time.
        p.set_policy(ASK + "prompt-timeout = 1\n")
        refusals = []
        c = portal.Client(s, "--screenshot")
        img = prompt.wait_shown(s, "the prompt for a Screenshot")
        s.click(*prompt.centre(prompt.box(img, prompt.DENY)))
        refusals.append(c.wait_step("Screenshot"))
        prompt.wait_gone(s)
        c = portal.Client(s, "--pick-color")
        prompt.wait_shown(s, "the prompt for PickColor")
        s.key_sym("Escape")
        refusals.append(c.wait_step("PickColor"))
        prompt.wait_gone(s)
        c = portal.Client(s, "--screenshot")
        prompt.wait_shown(s, "the prompt that nobody answers")
        refusals.append(c.wait_step("Screenshot"))
        prompt.wait_gone(s)
        for st in refusals:
            expect(st.get("response") == 1 and not st.get("results"),
                   "a request refused in the prompt: %r" % st)
        expect_eq(shots(s), before, "screenshots after refusals in the prompt")

        # Allowed in the prompt: the PNG shows the windows, not the prompt.
        p.set_policy(ASK)
        img = take(s, answer=lambda shown: s.click(*prompt.centre(
            prompt.box(shown, prompt.ALLOW))))
        s.park_pointer()
        expect_eq((img.width, img.height), (640, 480), "the allowed screenshot's size")
        for rect, rgb in ((red, RED), (blue, BLUE)):
            bad = img.first_mismatch(rect, rgb, tolerance=2)
            expect(bad is None, "the allowed screenshot at %r: %r (%s)" % (
                rect, bad, img.describe(rect)))
        expect(not prompt.bands(img, prompt.ALLOW) and not prompt.bands(img, prompt.DENY),
               "the prompt is in the screenshot")
        expect_eq(len(shots(s)), len(before) + 1, "screenshots after Allow")
        centre = (red[0] + red[2] // 2, red[1] + red[3] // 2)
        got = pick(s, *centre, key="Return")
        expect(all(abs(g - w) <= 2 for g, w in zip(got, RED)),
               "PickColor allowed in the prompt: #%s, want #%s" % (
                   harness.colour_hex(got), harness.colour_hex(RED)))
        before = shots(s)

        # Only the frontend may call the backend.
        res = s.run_tool([tool("gdbus"), "call", "--session", "--dest",
                          "org.freedesktop.impl.portal.desktop.oriel", "--object-path",
                          "/org/freedesktop/portal/desktop", "--method",
                          "org.freedesktop.impl.portal.Screenshot.Screenshot",
                          "/org/freedesktop/portal/desktop/request/x/y", "", "", "{}"],
                         check=False)
        expect(res.returncode != 0 and "AccessDenied" in res.stderr,
               "a direct Screenshot call was not refused: %r %r" % (res.stdout, res.stderr))
        expect_eq(shots(s), before, "screenshots after a direct call")
        p.check_alive()
        expect_eq(p.stop_backend(), 0, "the backend's exit status on SIGTERM")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
