#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The interactive Screenshot: the person picks an output, a window or a
region in oriel's prompt, through the real frontend
(/usr/libexec/xdg-desktop-portal 1.16) and portal_client.py.

- Two colour windows, blue above red and covering part of it. With the
  [screenshot] policy allowing, an interactive Screenshot still shows the
  prompt: a row for the output, one for each window, and "A region…"
  (four rows in oriel's row colours, offered in that order by the
  backend).
- Choosing red's row answers a PNG of exactly red's size, all red: the
  window's own surfaces, not blue above it.
- Choosing the region row, then dragging a rectangle with the pointer
  (from its bottom-right corner to its top-left) answers a PNG of that
  rectangle's size whose pixels are the screen's there (red, blue and the
  background), without the selector's dimming.
- Escape during the drag answers response 1 and writes no file.
- The app closing its request while the selector is up takes the
  selector down (no file either), and the next request is asked as usual.
- Under a deny policy, Screenshot (interactive or not) is refused without
  any prompt.
"""
import os
import re
import signal
import urllib.parse

import harness
import portal
import prompt
from harness import NotYet, Session, T, expect, expect_eq

RED = (0xd0, 0x20, 0x30)
BLUE = (0x30, 0x50, 0xe0)
RED_POS, RED_SIZE = (60, 50), (200, 150)
BLUE_POS, BLUE_SIZE = (180, 120), (160, 120)
ALLOW = "[screenshot]\ndefault = deny\nallow-unidentified = true\n"
DENY = "[screenshot]\ndefault = deny\n[screencast]\nallow = *\n"
REGION = (100, 90, 200, 150)  # across red, blue and the background


def shots(s):
    d = s.runtime_dir / "oriel" / "screenshots"
    return sorted(p.name for p in d.iterdir()) if d.is_dir() else []


def offered(p, n):
    """The ids of the last n sources the backend offered, in order."""
    ids = re.findall(r"^.*offering (\S+): (.*)$", p.backend.log(), re.M)
    expect(len(ids) >= n, "the backend offered %r" % (ids,))
    return ids[-n:]


def rows_of(img):
    """Every row of the prompt (chosen or not), top to bottom."""
    return sorted(prompt.bands(img, prompt.ROW) + [prompt.box(img, prompt.SELECTED)],
                  key=lambda b: b[1])


def choose(s, row):
    """Clicks row, waits until it is the chosen one, then clicks Allow."""
    s.click(*prompt.centre(row))

    def chosen():
        img = prompt.wait_shown(s)
        if prompt.box(img, prompt.SELECTED)[1] != row[1]:
            raise NotYet("row at y=%d is not chosen yet" % row[1])
        return img
    img = s.wait_for(chosen, T(10), "the row at y=%d to be chosen" % row[1])
    s.click(*prompt.centre(prompt.box(img, prompt.ALLOW)))


def ask(s, p, want_ids):
    """An interactive Screenshot; the prompt's rows once shown, by id."""
    c = portal.Client(s, "--screenshot", "--interactive")
    img = prompt.wait_shown(s, "the chooser for an interactive Screenshot")
    ids = [i for i, _ in offered(p, len(want_ids))]
    expect_eq(sorted(ids), sorted(want_ids), "the sources offered")
    rows = rows_of(img)
    expect_eq(len(rows), len(want_ids), "the prompt's rows: %r" % (rows,))
    return c, dict(zip(ids, rows))


def answered_png(s, st, what):
    expect_eq((st.get("step"), st.get("response")), ("Screenshot", 0), what)
    uri = st["results"].get("uri", "")
    expect(uri.startswith("file:///"), "%s: uri %r" % (what, uri))
    path = urllib.parse.unquote(uri[len("file://"):])
    expect_eq(os.path.dirname(path), str(s.runtime_dir / "oriel" / "screenshots"),
              "the screenshot's folder")
    return harness.read_png(path)


def wait_selector(s):
    """Waits until the region selector dims the screen (red's own corner)."""
    want = tuple(v // 2 for v in RED)

    def dimmed():
        px = s.screenshot(region=(RED_POS[0] + 2, RED_POS[1] + 2, 1, 1)).pixel(0, 0)
        if any(abs(a - b) > 3 for a, b in zip(px, want)):
            raise NotYet("red's corner is #%s" % harness.colour_hex(px))
        return True
    s.wait_for(dimmed, T(15), "the region selector to dim the screen")


def wait_undimmed(s):
    s.wait_colour((RED_POS[0] + 2, RED_POS[1] + 2, 4, 4), RED,
                  what="the region selector to go")


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        _, red_w = s.colour_window_at(RED, RED_SIZE, RED_POS, "red", "org.oriel.test.red")
        _, blue_w = s.colour_window_at(BLUE, BLUE_SIZE, BLUE_POS, "blue",
                                       "org.oriel.test.blue")
        s.wait_colour(RED_POS + (BLUE_POS[0] - RED_POS[0] - 4, RED_SIZE[1]), RED)
        s.wait_colour(BLUE_POS + BLUE_SIZE, BLUE, what="blue above red")
        out = s.output()["name"]
        want_ids = ["monitor:" + out, "window:%d" % red_w["id"],
                    "window:%d" % blue_w["id"], "region"]

        p = portal.start(s, policy=ALLOW)
        before = shots(s)

        # A window: red's own pixels at its size, though blue covers part of it.
        c, rows = ask(s, p, want_ids)
        log = p.backend.log()
        expect(re.search(r"offering region: A region", log),
               "the region row's label:\n%s" % log[-2000:])
        choose(s, rows["window:%d" % red_w["id"]])
        img = answered_png(s, c.wait_step("Screenshot"), "the window's Screenshot")
        prompt.wait_gone(s)
        expect_eq((img.width, img.height), RED_SIZE, "the window screenshot's size")
        bad = img.first_mismatch((0, 0) + RED_SIZE, RED, tolerance=2)
        expect(bad is None, "the window screenshot: %r (%s)" % (
            bad, img.describe((0, 0) + RED_SIZE)))

        # A region, dragged from its bottom-right corner to its top-left.
        c, rows = ask(s, p, want_ids)
        choose(s, rows["region"])
        prompt.wait_gone(s)
        wait_selector(s)
        x, y, w, h = REGION
        s.pointer_move(x + w, y + h)
        s.orielctl("pointer", "button", "left", "press", json=False)
        s.pointer_move(x + w // 2, y + h // 3)
        s.pointer_move(x, y)
        s.orielctl("pointer", "button", "left", "release", json=False)
        img = answered_png(s, c.wait_step("Screenshot"), "the region's Screenshot")
        expect_eq((img.width, img.height), (w, h), "the region screenshot's size")
        wait_undimmed(s)
        screen = s.screenshot(region=REGION)
        cursor = (0, 0, 64, 64)  # where the pointer stayed, at the region's origin
        diffs = [(pos, px, screen.pixel(*pos)) for pos, px in img.pixels((0, 0, w, h))
                 if not harness._inside(cursor, *pos) and
                 any(abs(a - b) > 2 for a, b in zip(px, screen.pixel(*pos)))]
        expect(not diffs, "the region screenshot differs from the screen: %r" % diffs[:5])
        for rect, rgb in (((RED_POS[0] - x + 70, 0, 40, 20), RED),
                          ((BLUE_POS[0] - x + 10, BLUE_POS[1] - y + 10, 40, 40), BLUE)):
            bad = img.first_mismatch(rect, rgb, tolerance=2)
            expect(bad is None, "the region screenshot at %r: %r (%s)" % (
                rect, bad, img.describe(rect)))
        expect_eq(len(shots(s)), len(before) + 2, "screenshots written")
        before = shots(s)

        # Escape during the drag: cancelled, no file.
        s.park_pointer()
        c, rows = ask(s, p, want_ids)
        choose(s, rows["region"])
        prompt.wait_gone(s)
        wait_selector(s)
        s.pointer_move(400, 300)
        s.orielctl("pointer", "button", "left", "press", json=False)
        s.pointer_move(500, 400)
        s.key_sym("Escape")
        st = c.wait_step("Screenshot")
        s.orielctl("pointer", "button", "left", "release", json=False)
        expect(st.get("response") == 1 and not st.get("results"),
               "Escape in the region selector: %r" % st)
        wait_undimmed(s)
        expect_eq(shots(s), before, "screenshots after Escape")

        # The app closes its request while the selector is up: it goes.
        c = portal.Client(s, "--screenshot", "--interactive", "--close-start-on-usr1")
        img = prompt.wait_shown(s, "the chooser for a request that will be closed")
        c.wait_step("start-pending")
        choose(s, dict(zip([i for i, _ in offered(p, len(want_ids))],
                           rows_of(img)))["region"])
        prompt.wait_gone(s)
        wait_selector(s)
        c.client.proc.send_signal(signal.SIGUSR1)
        st = c.wait_step("Screenshot")
        expect(st.get("closed"), "the client did not close its request: %r" % st)
        wait_undimmed(s)
        expect_eq(shots(s), before, "screenshots after the request was closed")
        # A new interactive request is asked as usual.
        c, rows = ask(s, p, want_ids)
        prompt.wait_shown(s)
        s.key_sym("Escape")
        st = c.wait_step("Screenshot")
        expect(st.get("response") == 1, "Escape in the chooser: %r" % st)
        prompt.wait_gone(s)

        # Denied: refused at once, and no prompt, interactive or not.
        p.set_policy(DENY)
        asked = p.backend.log().count("asking the person")
        for args in ((), ("--interactive",)):
            st = portal.one_shot(s, "Screenshot", "--screenshot", *args)
            expect(st.get("step") == "Screenshot" and st.get("response") == 1 and
                   not st.get("results"), "Screenshot %r under deny: %r" % (args, st))
        expect_eq(p.backend.log().count("asking the person"), asked,
                  "prompts asked under deny")
        shown = s.screenshot(output=out)
        expect(not prompt.bands(shown, prompt.ALLOW), "a prompt is up under deny")
        expect_eq(shots(s), before, "screenshots under deny")

        p.check_alive()
        expect_eq(p.stop_backend(), 0, "the backend's exit status on SIGTERM")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
