#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""_NET_WM_STATE_DEMANDS_ATTENTION is in the window's _NET_WM_STATE while
its title bar shows that it wants attention (EWMH: the WM keeps it until
the window is activated), so pagers and the app itself see it:
- a window whose WM_HINTS carry the urgency flag has it, focused or not;
- an unfocused window that asks for attention (a _NET_WM_STATE client
  message) has it until a click activates the window, then not any more;
- the window's other states (wlroots' own, e.g. FOCUSED) stay as they are.
"""
import harness
from harness import NotYet, Session
from xclient import spawn, xclient_path

ATTENTION = "_NET_WM_STATE_DEMANDS_ATTENTION"


def wait_state(s, wid, present, what):
    def check():
        out = s.xprop(wid, "_NET_WM_STATE")
        if (ATTENTION in out) != present:
            raise NotYet(out)
        return out
    return s.wait_for(check, what=what)


def centre(w):
    return (w["x"] + w["width"] // 2, w["y"] + w["height"] // 2)


def main():
    with Session(outputs=["1024x768"]) as s:
        _, calm_wid = spawn(s, "calm", "--size", "300x200", "--position", "50,80")
        calm = s.wait_window(title="calm", kind="x11")
        _, urgent_wid = spawn(s, "urgent", "--size", "300x200", "--position", "400,80",
                              "--urgent")
        urgent = s.wait_window(title="urgent", kind="x11")
        wait_state(s, urgent_wid, True, "urgent: DEMANDS_ATTENTION set")
        s.click(*centre(urgent))
        s.wait_window(id=urgent["id"], where=lambda w: w["focused"])
        wait_state(s, urgent_wid, True, "urgent, focused: DEMANDS_ATTENTION kept")
        wait_state(s, calm_wid, False, "calm: no DEMANDS_ATTENTION")

        # calm is unfocused now; it asks for attention as an app does.
        s.x_tool(xclient_path(), "send", "_NET_WM_STATE", calm_wid, 1, ATTENTION, 0, 1)
        wait_state(s, calm_wid, True, "calm asked: DEMANDS_ATTENTION set")
        s.click(*centre(calm))
        s.wait_window(id=calm["id"], where=lambda w: w["focused"])
        out = wait_state(s, calm_wid, False, "calm activated: DEMANDS_ATTENTION gone")
        harness.expect("_NET_WM_STATE_FOCUSED" in out,
                       "wlroots' FOCUSED state lost: %s" % out)
        wait_state(s, urgent_wid, True, "urgent, unfocused: DEMANDS_ATTENTION kept")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
