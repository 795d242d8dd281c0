#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two casts of one output, each with its own consumer: when one consumer
leaves, its cast ends and the other cast goes on streaming.

PipeWire pauses streams while it rearranges the graph after a node goes
away; that pause is not the consumer leaving. The surviving consumer must
see every later change, for longer than any grace period oriel could use
(changes are made until 3 s have passed since the first consumer died,
each one awaited in the frames), and its cast stays listed.
"""
import json
import signal
import time

import harness
import pipewire
from harness import NotYet, Session, expect, expect_eq, geometry, T

COLOURS = [(0xd0, 0x20, 0x30), (0x20, 0x40, 0xe0), (0x20, 0xb0, 0x40),
           (0xe0, 0xc0, 0x10), (0x90, 0x30, 0xc0), (0x10, 0xc0, 0xc0)]
SURVIVE = 3.0


def listed(s):
    return [x["id"] for x in json.loads(s.orielctl("cast", "list", "--json", json=False))]


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        pipewire.start(s)
        out = s.output()["name"]
        cast1 = pipewire.Cast(s, out)
        cast2 = pipewire.Cast(s, out)
        c1 = pipewire.Consumer(s, cast1.node, dump=False)
        c2 = pipewire.Consumer(s, cast2.node)
        expect_eq(c1.wait_format(), (640, 480, "BGRx"), "first consumer's format")
        expect_eq(c2.wait_format(), (640, 480, "BGRx"), "second consumer's format")
        c1.wait_frames(1)
        c2.wait_frames(1)

        # The first consumer leaves: its cast ends.
        c1.client.kill(signal.SIGKILL)
        died = time.monotonic()

        def first_gone():
            if cast1.id in listed(s):
                raise NotYet("cast %d still listed" % cast1.id)
            return True
        s.wait_for(first_gone, T(10), "the first cast to end")

        # The second goes on: every change arrives, well past the moment
        # the first consumer left.
        i = 0
        clients = []
        while i < 2 or time.monotonic() - died < SURVIVE:
            colour = COLOURS[i % len(COLOURS)]
            app = "org.oriel.test.c%d" % i
            size = (100 + 10 * (i % 5), 80)
            n = len(c2.frames())
            w = s.spawn_colour(colour, size=size, title="c%d" % i, app_id=app)
            w.wait_ready(size=size)
            rect = geometry(s.wait_window(app_id=app))

            def arrived():
                expect(cast2.alive(), "the second cast ended: %s" % cast2.client.log())
                fs = c2.frames()[n:]
                if not fs:
                    raise NotYet("no new frame")
                img = c2.image(fs[-1]["seq"])
                if img.first_mismatch(rect, colour, tolerance=2) is not None:
                    raise NotYet("window %d not in frame %d yet" % (i, fs[-1]["seq"]))
                return True
            s.wait_for(arrived, T(10), "change %d in the second cast" % i)
            clients.append(w)
            if len(clients) > 2:
                clients.pop(0).kill(signal.SIGTERM)
            i += 1

        expect(cast2.alive(), "the second cast is running")
        expect(c2.client.alive(), "the second consumer is running")
        expect(cast2.id in listed(s), "the second cast is listed")
        states = [l for l in c2.lines() if l.startswith("state ")]
        expect(not any("error" in l or "unconnected" in l for l in states),
               "the second consumer's stream states: %r" % states)
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
