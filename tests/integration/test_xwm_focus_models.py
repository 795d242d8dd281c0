#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The four ICCCM input focus models (ICCCM 4.1.7), as the X client sees them.

Four oriel-test-xclient windows, one per model, each given focus by mapping
or by a click:
- Passive (input True): FocusIn, no WM_TAKE_FOCUS, and GetInputFocus names it;
- Locally Active (input True + WM_TAKE_FOCUS): WM_TAKE_FOCUS and FocusIn;
- Globally Active (input False + WM_TAKE_FOCUS): WM_TAKE_FOCUS only; the
  client sets the focus itself, then gets FocusIn;
- No Input (input False, no WM_TAKE_FOCUS): neither on map nor on a click;
  the focus stays with the window that had it, for X and for oriel.
"""

import re

import harness
from harness import NotYet, Session, expect, expect_eq
from xclient import spawn, xclient_path


def x_focus(s):
    out = s.x_tool(xclient_path(), "focus").stdout
    m = re.search(r"^focus (0x[0-9a-f]+)$", out, re.M)
    expect(m, "no focus line: %r" % out)
    return m.group(1)


def lines(client, word):
    return client.log().splitlines().count(word)


def wait_focused(s, client, wid, title, take_focus):
    """Waits until the window has oriel's and X's focus and its client saw
    FocusIn; WM_TAKE_FOCUS must have come exactly when take_focus."""
    s.wait_window(title=title, where=lambda w: w["focused"],
                  what="%s focused in oriel" % title)

    def seen():
        if x_focus(s) != wid:
            raise NotYet("X focus is %s" % x_focus(s))
        if lines(client, "focus-in") == 0:
            raise NotYet("no FocusIn yet: %r" % client.log())
        return True
    s.wait_for(seen, what="%s to have the X focus" % title)
    # WM_TAKE_FOCUS, when sent, precedes the FocusIn it leads to.
    expect_eq(lines(client, "take-focus") > 0, take_focus,
              "%s received WM_TAKE_FOCUS (log %r)" % (title, client.log()))


def centre(w):
    return (w["x"] + w["width"] // 2, w["y"] + w["height"] // 2)


def main():
    with Session(outputs=["1024x768"]) as s:
        passive, passive_wid = spawn(s, "passive", "--position", "20,60")
        wait_focused(s, passive, passive_wid, "passive", take_focus=False)

        local, local_wid = spawn(s, "local", "--position", "300,60", "--take-focus")
        wait_focused(s, local, local_wid, "local", take_focus=True)

        glob, glob_wid = spawn(s, "global", "--position", "580,60", "--input", "no",
                               "--take-focus")
        wait_focused(s, glob, glob_wid, "global", take_focus=True)

        # No Input: mapping does not focus it, nor does a click.
        noinput, noinput_wid = spawn(s, "noinput", "--position", "20,350",
                                     "--input", "no")
        win = s.wait_window(title="noinput")
        s.click(*centre(win))
        expect(s.window_by(title="global")["focused"],
               "a click on a No Input window moved oriel's focus: %s" %
               harness.brief_windows(s.windows()))
        expect_eq(x_focus(s), glob_wid, "X focus after a click on the No Input window")

        # Clicks give the others focus again, each in its own way.
        passive_in = lines(passive, "focus-in")
        s.click(*centre(s.window_by(title="passive")))
        wait_focused(s, passive, passive_wid, "passive", take_focus=False)
        s.wait_for(lambda: lines(passive, "focus-in") > passive_in,
                   what="another FocusIn on the click")
        takes = lines(local, "take-focus")
        s.click(*centre(s.window_by(title="local")))
        wait_focused(s, local, local_wid, "local", take_focus=True)
        s.wait_for(lambda: lines(local, "take-focus") > takes,
                   what="another WM_TAKE_FOCUS on the click")

        for word in ("take-focus", "focus-in"):
            expect_eq(lines(noinput, word), 0,
                      "No Input window's %s lines (log %r)" % (word, noinput.log()))


if __name__ == "__main__":
    harness.run(main)
