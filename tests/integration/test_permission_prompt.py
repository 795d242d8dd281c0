#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""oriel's own permission prompt, asked through the control API
(org.oriel.Compositor.Permission.Ask, with busctl on the config's
allowlist) and answered with injected input, as a person would:

- the prompt shows over the windows, on the first output: Allow, Deny,
  one row per source with the first one chosen, and a "remember" checkbox
  when persistence is allowed; it is found in screenshots by its colours;
- a click on the second row chooses it, a click on the checkbox ticks it,
  and a click on Allow (at the pixels found) answers allowed, that
  source's id and remember; the prompt goes away;
- while it is up, a click on a window under it does not reach it: the
  window is neither focused nor raised;
- over a fullscreen window, Alt+Tab reaches neither the switcher nor the
  windows (the prompt takes keys first), and Escape denies; Down then
  Return allows the second source; no answer within the timeout denies;
- bad arguments are refused, and a caller off the allowlist (gdbus) is
  refused, with oriel going on;
- Withdraw names an Ask by its caller and cookie: another caller's
  withdraw (whatever the cookie), cookie 0 or a malformed call get an
  error and leave the prompt up; gdbus is refused;
- in kiosk mode, over the kiosk's fullscreen window, a click on Deny
  denies.
"""
import tempfile
from pathlib import Path

import harness
import prompt
from harness import Session, expect, expect_eq, geometry, tool

BLUE = (0x20, 0x40, 0xc0)
YELLOW = (0xe0, 0xd0, 0x20)
SWITCHER_SELECTED = (217, 166, 33)  # switcher.c selected_colour
SOURCES = [("HEADLESS-1", "Screen HEADLESS-1"), ("window:7", "An xterm window")]


def focused(s):
    return [w["app_id"] for w in s.windows() if w["focused"]]


def wait_focused(s, app_id, what):
    def check():
        now = focused(s)
        if now != [app_id]:
            raise harness.NotYet("focused: %r" % now)
        return True
    s.wait_for(check, what=what)


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-prompt-") as tmp, \
            Session(config=prompt.allow_busctl(Path(tmp))) as s:
        # Two windows, the yellow one over the blue one, both clear of the
        # middle of the screen where the prompt goes.
        _, blue = s.colour_window_at(BLUE, (300, 200), (40, 60), "blue", "org.oriel.test.blue")
        _, yellow = s.colour_window_at(YELLOW, (300, 200), (140, 120), "yellow",
                                       "org.oriel.test.yellow")
        s.click(*prompt.centre(geometry(yellow)))
        wait_focused(s, "org.oriel.test.yellow", "the yellow window to have the focus")
        s.park_pointer()

        ask = prompt.Ask(s, "org.example.Meeting", "screencast", SOURCES, persist=True)
        img = prompt.wait_shown(s)
        allow, deny = prompt.box(img, prompt.ALLOW), prompt.box(img, prompt.DENY)
        out = s.output()
        expect(out["x"] < deny[0] < allow[0] < out["x"] + out["width"],
               "Deny %r left of Allow %r, on the output" % (deny, allow))
        chosen = prompt.box(img, prompt.SELECTED)
        others = prompt.bands(img, prompt.ROW)
        expect_eq(len(others), 1, "rows not chosen (of two sources)")
        expect(chosen[1] < others[0][1], "the first row %r is chosen, above %r" % (
            chosen, others[0]))
        checkbox = prompt.box(img, prompt.CHECKBOX, min_width=2)
        # The windows are dimmed: a modal prompt.
        bx, by = blue["x"] + 5, blue["y"] + 5
        expect(img.pixel(bx, by) != BLUE, "the blue window is not dimmed: %r" % (
            img.pixel(bx, by),))

        # A click on the blue window under the prompt reaches nobody.
        s.click(bx, by)
        s.park_pointer()
        expect_eq(focused(s), ["org.oriel.test.yellow"], "focus after a click under the prompt")
        expect_eq(s.windows()[-1]["app_id"], "org.oriel.test.yellow", "the top window")
        expect(not ask.answered(), "the click under the prompt answered it")

        # Choose the second source, tick "remember", then Allow.
        s.click(*prompt.centre(others[0]))
        s.click(*prompt.centre(checkbox))

        def chosen_second():
            shot = s.screenshot(output=out["name"])
            now = prompt.bands(shot, prompt.SELECTED)
            if len(now) != 2 or now[0][1] <= chosen[1]:
                raise harness.NotYet("chosen areas %r" % now)
            return shot
        img = s.wait_for(chosen_second, what="the second row chosen and the box ticked")
        s.click(*prompt.centre(prompt.box(img, prompt.ALLOW)))
        expect_eq(ask.answer(), (True, "window:7", True), "the answer to a click on Allow")
        prompt.wait_gone(s)
        s.wait_colour((bx, by, 20, 20), BLUE, what="the blue window shown again")
        wait_focused(s, "org.oriel.test.yellow", "the yellow window to keep the focus")

        # Over a fullscreen window; Escape denies.
        s.orielctl("fullscreen", yellow["id"], "on")
        s.wait_colour((out["x"] + 10, out["y"] + 10, 20, 20), YELLOW,
                      what="the yellow window fullscreen")
        ask = prompt.Ask(s, "org.example.Meeting", "window", SOURCES)
        img = prompt.wait_shown(s, "the prompt over a fullscreen window")
        expect(not prompt.bands(img, prompt.CHECKBOX, min_width=2),
               "a checkbox without persistence")
        s.key_sym("Alt_L", "press")
        s.key_sym("Tab")
        shot = prompt.wait_shown(s, "the prompt after Alt+Tab")
        expect(not prompt.bands(shot, SWITCHER_SELECTED),
               "the Alt+Tab switcher shows over the prompt")
        s.key_sym("Alt_L", "release")
        expect(not ask.answered(), "Alt+Tab answered the prompt")
        s.key_sym("Escape")
        expect_eq(ask.answer(), (False, "", False), "the answer to Escape")
        prompt.wait_gone(s)
        expect_eq(focused(s), ["org.oriel.test.yellow"], "focus after Alt+Tab under the prompt")

        # Down chooses the second source, Return allows.
        ask = prompt.Ask(s, "", "screencast", SOURCES)
        prompt.wait_shown(s)
        s.key_sym("Down")
        s.key_sym("Return")
        expect_eq(ask.answer(), (True, "window:7", False), "the answer to Down, Return")
        prompt.wait_gone(s)

        # Nobody answers: denied when the time is up.
        ask = prompt.Ask(s, "org.example.Meeting", "screenshot", timeout_ms=1500)
        prompt.wait_shown(s)
        expect_eq(ask.answer(), (False, "", False), "the answer when nobody answers")
        prompt.wait_gone(s)

        # Withdraw: only the asker's own Ask goes; others get an error.
        ask = prompt.Ask(s, "org.example.Meeting", "screencast", SOURCES)
        prompt.wait_shown(s, "the prompt that others try to withdraw")
        for cookie in range(1, 6):
            err = prompt.call_error(s, "t", str(cookie), method="Withdraw")
            expect("no Ask or SelectRegion with cookie %d from this caller" % cookie in err,
                   "a withdraw of cookie %d by another caller: %s" % (cookie, err))
        err = prompt.call_error(s, "t", "0", method="Withdraw")
        expect("cookie 0" in err, "a withdraw of cookie 0: %s" % err)
        err = prompt.call_error(s, "s", "1", method="Withdraw")
        expect("InvalidArgs" in err or "Invalid" in err, "a malformed withdraw: %s" % err)
        res = s.run_tool([tool("gdbus"), "call", "--session", "--dest",
                          "org.oriel.Compositor", "--object-path", "/org/oriel/Compositor",
                          "--method", "org.oriel.Compositor.Permission.Withdraw", "2"],
                         check=False)
        expect(res.returncode != 0 and "AccessDenied" in res.stderr,
               "gdbus's withdraw was not refused: %r %r" % (res.stdout, res.stderr))
        prompt.wait_shown(s, "the prompt after the withdraws that failed")
        expect(not ask.answered(), "another caller's withdraw answered the Ask")
        s.key_sym("Escape")
        expect_eq(ask.answer(), (False, "", False), "the answer to Escape after the withdraws")
        prompt.wait_gone(s)

        # Bad arguments, and a caller off the allowlist.
        err = prompt.call_error(s, "ssa(ss)bu", "app", "bogus", "0", "false", "1000")
        expect("InvalidArgs" in err or "not screencast" in err, "bad kind: %s" % err)
        err = prompt.call_error(s, "ssa(ss)bu", "app", "screencast", "0", "false",
                                "4000000000")
        expect("timeout_ms" in err, "huge timeout: %s" % err)
        res = s.run_tool([tool("gdbus"), "call", "--session", "--dest",
                          "org.oriel.Compositor", "--object-path", "/org/oriel/Compositor",
                          "--method", "org.oriel.Compositor.Permission.Ask", "app",
                          "screencast", "[]", "false", "1000"], check=False)
        expect(res.returncode != 0 and "AccessDenied" in res.stderr,
               "gdbus was not refused: %r %r" % (res.stdout, res.stderr))
        s.check_alive()

    with tempfile.TemporaryDirectory(prefix="oriel-prompt-") as tmp, \
            Session(kiosk=True, config=prompt.allow_busctl(Path(tmp))) as s:
        s.spawn_colour(BLUE, size=(300, 200)).wait_ready()
        out = s.output()
        s.wait_colour((out["x"] + 10, out["y"] + 10, 20, 20), BLUE,
                      what="the kiosk's window filling the output")
        ask = prompt.Ask(s, "org.example.Kiosk", "remote")
        img = prompt.wait_shown(s, "the prompt in kiosk mode")
        s.click(*prompt.centre(prompt.box(img, prompt.DENY)))
        expect_eq(ask.answer(), (False, "", False), "the answer to Deny in kiosk mode")
        prompt.wait_gone(s)


if __name__ == "__main__":
    harness.run(main)
