#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""When the focused window closes, focus goes back to the window that had
it before, not to the topmost one.

Three oriel-test-xclient windows: "pinned" (_NET_WM_STATE_ABOVE, so it
stays on top of the stack), then "first", then "second", each focused as it
maps. Closing "second" (WM_DELETE_WINDOW through _NET_CLOSE_WINDOW) gives
the focus to "first", for oriel and for X, although "pinned" is stacked
above it.
"""

import re

import harness
from harness import NotYet, Session, expect
from xclient import spawn, xclient_path


def x_focus(s):
    out = s.x_tool(xclient_path(), "focus").stdout
    return re.search(r"focus (0x[0-9a-f]+)", out).group(1)


def main():
    with Session(outputs=["1024x768"]) as s:
        _, pinned = spawn(s, "pinned", "--position", "40,60", "--state", "ABOVE")
        s.wait_window(title="pinned", where=lambda w: w["focused"])
        _, first = spawn(s, "first", "--position", "400,60")
        s.wait_window(title="first", where=lambda w: w["focused"])
        _, second = spawn(s, "second", "--position", "400,360")
        s.wait_window(title="second", where=lambda w: w["focused"])
        wins = s.windows()
        expect(wins[-1]["title"] == "pinned", "pinned is not on top: %s" %
               harness.brief_windows(wins))

        s.x_tool(xclient_path(), "send", "_NET_CLOSE_WINDOW", second, 0, 2)
        s.wait_no_window(title="second")
        s.wait_window(title="first", where=lambda w: w["focused"],
                      what="focus back on the window focused before")

        def x_check():
            if x_focus(s) != first:
                raise NotYet("X focus is %s" % x_focus(s))
            return True
        s.wait_for(x_check, what="X focus on first")


if __name__ == "__main__":
    harness.run(main)
