#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Clicking a window focuses and raises it.

Two colour clients overlap.  Clicking (orielctl pointer move/button) on the
visible part of the one below brings it to the top: the screenshot at the
overlap shows its colour, and `orielctl windows` lists it last (top of the
stacking order) and focused.  Then the same the other way round.
"""
import harness
from harness import NotYet, Session, expect

A = (0xd0, 0x20, 0x40)
B = (0x30, 0x50, 0xe0)
A_POS = (100, 120)
B_POS = (300, 260)
SIZE = (400, 300)


def main():
    with Session(outputs=["1024x768"]) as s:
        a, wa = s.colour_window_at(A, SIZE, A_POS, "A", "org.oriel.test.a")
        b, wb = s.colour_window_at(B, SIZE, B_POS, "B", "org.oriel.test.b")

        ra = (A_POS[0], A_POS[1]) + SIZE
        rb = (B_POS[0], B_POS[1]) + SIZE
        overlap = harness.intersect(ra, rb)
        expect(overlap[2] > 0 and overlap[3] > 0, "test windows do not overlap")
        # Points well inside the part of each window the other cannot cover
        # (away from any title bar above the content).
        only_a = (A_POS[0] + 50, A_POS[1] + 50)
        only_b = (B_POS[0] + SIZE[0] - 50, B_POS[1] + SIZE[1] - 50)
        # Interior of the overlap, away from borders the frame might draw.
        probe = (overlap[0] + 40, overlap[1] + 40, overlap[2] - 80, overlap[3] - 80)

        wins = s.windows()
        top = wins[-1]["id"]
        expect(top in (wa["id"], wb["id"]), "top window is neither A nor B: %r" % wins)
        order = [(wa, A, only_a), (wb, B, only_b)]
        if top == wa["id"]:
            order.reverse()  # click the one below first
        for win, colour, point in order + order[:1]:
            s.click(*point)
            s.wait_for(lambda: _on_top_and_focused(s, win["id"]),
                       what="%s to be on top and focused after the click" % win["title"])
            s.park_pointer()
            s.wait_colour(probe, colour, what="the overlap to show %s's colour"
                          % win["title"])


def _on_top_and_focused(s, wid):
    wins = s.windows()
    if not wins or wins[-1]["id"] != wid:
        raise NotYet("stacking (bottom first): %s" % harness.brief_windows(wins))
    focused = [w["id"] for w in wins if w["focused"]]
    if focused != [wid]:
        raise NotYet("focused windows: %r" % focused)
    return True


if __name__ == "__main__":
    harness.run(main)
