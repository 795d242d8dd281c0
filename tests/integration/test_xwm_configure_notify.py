#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ICCCM 4.1.5: every move tells the client where it is.

xev prints the StructureNotify events its window gets. After a move
through the control API, it gets a synthetic ConfigureNotify whose
position is its root position (xwininfo) and the compositor's; a move to
where it already is still gets one, since X itself sends none then.
"""
import re

import harness
from harness import NotYet, Session, expect_eq, tool

SYNTHETIC = re.compile(r"ConfigureNotify event, serial \d+, synthetic YES, "
                       r"window (0x[0-9a-f]+),\s*event 0x[0-9a-f]+, "
                       r"window 0x[0-9a-f]+, \((-?\d+),(-?\d+)\), "
                       r"width (\d+), height (\d+)")


def synthetic_events(client):
    return [(int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)))
            for m in SYNTHETIC.finditer(client.log())]


def main():
    with Session(outputs=["1024x768"]) as s:
        xev = s.spawn_x([tool("stdbuf"), "-oL", tool("xev"), "-geometry", "200x150+100+100",
                         "-event", "structure", "-name", "cn-test"])
        win = s.wait_window(kind="x11", where=lambda w: (w["width"], w["height"]) == (200, 150),
                            what="xev's window")

        def got(expected, after):
            def check():
                events = synthetic_events(xev)
                if len(events) <= after or expected not in events[after:]:
                    raise NotYet("synthetic ConfigureNotify events: %r" % events)
                return len(events)
            return check

        for target in ((300, 200), (300, 200), (40, 500)):
            before = len(synthetic_events(xev))
            s.orielctl("move", win["id"], target[0], target[1], json=False)
            s.wait_for(got(target + (200, 150), before),
                       what="a synthetic ConfigureNotify at %r" % (target,))
            w = s.window_by(id=win["id"])
            expect_eq((w["x"], w["y"]), target, "compositor's position")

        wid = int(SYNTHETIC.search(xev.log()).group(1), 16)
        info = s.xwininfo(wid)
        expect_eq((info["x"], info["y"]), (40, 500), "xwininfo position")


if __name__ == "__main__":
    harness.run(main)
