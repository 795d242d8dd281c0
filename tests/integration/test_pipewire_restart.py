#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PipeWire restarts under a running cast.

pipewire and wireplumber are killed while a cast streams: the cast ends
(orielctl sees Closed and exits, the list is empty), oriel stays alive
and, with no cast and no daemon, sleeps (no wakeups over a measurement
window). Once the daemons are back, a new cast connects again and its
consumer gets frames showing what is on the screen.
"""
import json
import signal
import time

import harness
import pipewire
from harness import NotYet, Session, expect, expect_eq, geometry, T

RED = (0xd0, 0x20, 0x30)
BLUE = (0x20, 0x40, 0xe0)
IDLE_WINDOW = 2.0
MAX_WAKEUPS = 10


def listed(s):
    return json.loads(s.orielctl("cast", "list", "--json", json=False))


def wait_shows(s, consumer, rect, colour):
    def got():
        expect(consumer.client.alive(), "the consumer exited: %s" % consumer.client.log())
        fs = consumer.frames()
        if not fs:
            raise NotYet("no frame yet")
        img = consumer.image(fs[-1]["seq"])
        if img.first_mismatch(rect, colour, tolerance=2) is not None:
            raise NotYet("frame %d: %s" % (fs[-1]["seq"], img.describe(rect)))
        return True
    s.wait_for(got, T(15), "%r at %r in the cast" % (colour, rect))


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        daemons = pipewire.start(s)
        out = s.output()["name"]
        _, red = s.colour_window_at(RED, (160, 120), (50, 40), "red", "org.oriel.test.red")
        cast = pipewire.Cast(s, out)
        c = pipewire.Consumer(s, cast.node)
        c.wait_format()
        wait_shows(s, c, geometry(red), RED)

        for d in (daemons.wireplumber, daemons.pipewire):
            d.kill(signal.SIGKILL)
            d.proc.wait(T(5))

        def ended():
            if cast.alive():
                raise NotYet("orielctl cast start still runs")
            if listed(s):
                raise NotYet("casts still listed: %r" % listed(s))
            return True
        s.wait_for(ended, T(10), "the cast to end with PipeWire")
        expect("ended" in cast.client.log(),
               "orielctl saw the cast end: %r" % cast.client.log())
        s.check_alive()

        pid = s.oriel.pid
        vol0, _ = harness.proc_ctxt_switches(pid)
        time.sleep(IDLE_WINDOW)  # the measurement window itself
        vol1, _ = harness.proc_ctxt_switches(pid)
        expect(vol1 - vol0 < MAX_WAKEUPS,
               "oriel woke up %d times in %.0fs without PipeWire (limit %d)"
               % (vol1 - vol0, IDLE_WINDOW, MAX_WAKEUPS))

        # Without PipeWire a cast fails with a clear error.
        res = s.orielctl_raw("cast", "start", "--output", out)
        expect(res.returncode != 0 and "PipeWire" in res.stderr,
               "a cast without PipeWire fails clearly: %r" % (res.stderr,))

        pipewire.start(s)
        _, blue = s.colour_window_at(BLUE, (120, 100), (300, 200), "blue",
                                     "org.oriel.test.blue")
        cast2 = pipewire.Cast(s, out)
        c2 = pipewire.Consumer(s, cast2.node)
        expect_eq(c2.wait_format(), (640, 480, "BGRx"), "the new cast's format")
        wait_shows(s, c2, geometry(red), RED)
        wait_shows(s, c2, geometry(blue), BLUE)
        expect_eq([x["id"] for x in listed(s)], [cast2.id], "the new cast listed")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
