#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""WM_TRANSIENT_FOR, WM_HINTS initial_state and urgency, DEMANDS_ATTENTION.

With oriel-test-xclient (exact properties, no toolkit guessing):
- a transient is centered over its parent and stays above it (the
  screenshot at the parent's center shows the transient); minimizing the
  parent minimizes the transient too, restoring restores both;
- a window whose WM_HINTS initial_state is IconicState starts minimized:
  listed by orielctl as minimized, never shown, WM_STATE Iconic;
- the WM_HINTS urgency flag turns the title bar orange, even focused;
- _NET_WM_STATE_DEMANDS_ATTENTION (a client message, as an app sends it)
  turns an unfocused window's title bar orange until it gets focus.
"""

import harness
from harness import NotYet, Session, expect
from xclient import spawn, xclient_path

PARENT = (0x20, 0xa0, 0x30)
CHILD = (0xd0, 0x20, 0xc0)
ATTENTION = (255, 140, 0)     # decoration.c title_attention
FOCUSED = (41, 89, 153)       # decoration.c title_focused
TITLE = 24                    # compositor/decoration.h


def title_bar_share(s, win, rgb, tolerance=12):
    """Share of the title bar's pixels (text excluded roughly) that are rgb."""
    rect = (win["x"] + 2, win["y"] - TITLE + 2, win["width"] - 4, 4)
    img = s.screenshot(region=rect)
    return img.count_colour((0, 0, rect[2], rect[3]), rgb, tolerance) / float(
        rect[2] * rect[3])


def wait_title_colour(s, title, rgb, what):
    def check():
        win = s.window_by(title=title)
        expect(win is not None, "%s is not listed" % title)
        share = title_bar_share(s, win, rgb)
        if share < 0.6:
            raise NotYet("title bar of %s: %.0f%% #%s" % (
                title, share * 100, harness.colour_hex(rgb)))
        return True
    s.wait_for(check, what=what)


def center(w):
    return (w["x"] + w["width"] // 2, w["y"] + w["height"] // 2)


def main():
    with Session(outputs=["1024x768"]) as s:
        # -- transient: centered over the parent, above it, minimized with it
        _, parent_wid = spawn(s, "parent", "--size", "500x400", "--colour",
                              harness.colour_hex(PARENT))
        parent = s.wait_window(title="parent", kind="x11")
        _, child_wid = spawn(s, "child", "--size", "200x120", "--colour",
                             harness.colour_hex(CHILD), "--transient-for", parent_wid)
        child = s.wait_window(title="child", kind="x11")
        pc, cc = center(parent), center(child)
        expect(abs(pc[0] - cc[0]) <= 1 and abs(pc[1] - cc[1]) <= 1,
               "transient centered at %r, parent's center %r" % (cc, pc))
        s.wait_colour((cc[0] - 5, cc[1] - 5, 10, 10), CHILD,
                      what="the transient visible at the parent's center")
        # Raising the parent keeps the transient above it.
        s.orielctl("focus", parent["id"], json=False)
        s.wait_window(title="parent", where=lambda w: w["focused"])
        s.wait_colour((cc[0] - 5, cc[1] - 5, 10, 10), CHILD,
                      what="the transient still above its focused parent")

        s.orielctl("minimize", parent["id"], "on", json=False)
        s.wait_window(title="child", where=lambda w: w["minimized"],
                      what="the transient minimized with its parent")
        s.wait_window(title="parent", where=lambda w: w["minimized"])
        s.orielctl("minimize", parent["id"], "off", json=False)
        s.wait_window(title="child", where=lambda w: not w["minimized"],
                      what="the transient restored with its parent")
        s.wait_colour((cc[0] - 5, cc[1] - 5, 10, 10), CHILD,
                      what="the restored transient above its parent")

        # -- initial_state IconicState: starts minimized, still listed
        _, iconic_wid = spawn(s, "iconic", "--iconic", "--colour", "ffff00")
        iconic = s.wait_window(title="iconic", kind="x11")
        expect(iconic["minimized"], "IconicState window is not minimized: %r" % iconic)
        expect(not iconic["focused"], "IconicState window took focus")
        state = s.wait_for(lambda: (lambda out: out if "Iconic" in out else
                                    (_ for _ in ()).throw(NotYet(out)))(
            s.xprop(iconic_wid, "WM_STATE")), what="WM_STATE Iconic")
        expect("Iconic" in state, state)

        # -- urgency flag: orange title bar, even while focused
        spawn(s, "urgent", "--urgent", "--position", "30,60", "--size", "300x100")
        s.wait_window(title="urgent", kind="x11")
        wait_title_colour(s, "urgent", ATTENTION, "urgent window's title bar orange")

        # -- _NET_WM_STATE_DEMANDS_ATTENTION on an unfocused window
        _, calm_wid = spawn(s, "calm", "--position", "600,60", "--size", "300x100")
        calm = s.wait_window(title="calm", kind="x11", where=lambda w: w["focused"])
        _, other_wid = spawn(s, "other", "--position", "600,400", "--size", "300x100")
        s.wait_window(title="other", where=lambda w: w["focused"])
        s.x_tool(xclient_path(), "send", "_NET_WM_STATE", calm_wid, 1,
                 "_NET_WM_STATE_DEMANDS_ATTENTION", 0, 1)
        wait_title_colour(s, "calm", ATTENTION, "DEMANDS_ATTENTION title bar orange")
        s.orielctl("focus", calm["id"], json=False)
        wait_title_colour(s, "calm", FOCUSED,
                          "attention cleared once the window has focus")


if __name__ == "__main__":
    harness.run(main)
