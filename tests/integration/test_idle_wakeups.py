#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An idle screen costs nothing: no periodic wakeups.

With a static colour client presented and nothing else happening, oriel
must sleep.  Over a 3 second window the voluntary context switches of all
its threads (each one is a wakeup from poll/epoll) must grow by fewer than
10; a 60 Hz frame timer would give about 180.  This is a condition on
counts: the window is a measurement period, not a synchronisation sleep.
"""
import time

import harness
from harness import Session, expect

WINDOW = 3.0
MAX_WAKEUPS = 10


def main():
    with Session(outputs=["1280x720"]) as s:
        c = s.spawn_colour((0x30, 0x50, 0xe0), size=(320, 240), title="idle",
                           app_id="org.oriel.test.idle")
        c.wait_ready(size=(320, 240))
        s.wait_window(app_id="org.oriel.test.idle")
        pid = s.oriel.pid

        cpu0 = harness.proc_cpu_ticks(pid)
        vol0, invol0 = harness.proc_ctxt_switches(pid)
        time.sleep(WINDOW)  # the measurement window itself
        cpu1 = harness.proc_cpu_ticks(pid)
        vol1, invol1 = harness.proc_ctxt_switches(pid)

        s.check_alive()
        expect(c.alive(), "the colour client died")
        wakeups = vol1 - vol0
        ticks = cpu1 - cpu0
        harness.log("idle %.0fs: %d voluntary, %d involuntary context switches, "
                    "%d CPU ticks (%.2f%% CPU)" % (
                        WINDOW, wakeups, invol1 - invol0, ticks,
                        100.0 * ticks / harness.os.sysconf("SC_CLK_TCK") / WINDOW))
        expect(wakeups < MAX_WAKEUPS,
               "oriel woke up %d times in %.0fs while idle (limit %d)"
               % (wakeups, WINDOW, MAX_WAKEUPS))


if __name__ == "__main__":
    harness.run(main)
