#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Three viewers on an idle session cost oriel (almost) nothing.

Three viewers (Raw, Tight, ZRLE) watch a static colour window.  Once
none of them has received anything for a second, over a 10 s
measurement window oriel must use under 2 % of a core (from
/proc/PID/stat), wake up fewer than 30 times (voluntary context
switches of all its threads: a poll timer at 60 Hz would give 600), and
no viewer may receive a FramebufferUpdate.
"""

import harness
import vnc
from harness import Session, expect

WINDOW = 10.0
MAX_CPU = 0.02
MAX_WAKEUPS = 30


def main():
    port = vnc.free_port()
    with Session(outputs=["1280x720"], args=vnc.vnc_args(port)) as s:
        c = s.spawn_colour((0x30, 0x50, 0xe0), size=(320, 240), title="idle",
                           app_id="org.oriel.test.idle")
        c.wait_ready(size=(320, 240))
        s.wait_window(app_id="org.oriel.test.idle")
        s.park_pointer()
        vnc.wait_listening(s, vnc.tcp(port))
        viewers = [vnc.Viewer(s, vnc.tcp(port), name=enc, encodings=enc)
                   for enc in ("raw", "tight", "zrle")]
        for v in viewers:
            v.wait_connected()
            v.wait_line("frame")
        for v in viewers:
            v.quiesce()

        marks = [v.mark() for v in viewers]
        cpu, wakeups = harness.idle_cost(s.oriel.pid, WINDOW)
        s.check_alive()

        harness.log("idle with 3 viewers over %.0fs: %.2f%% CPU, %d wakeups" % (
            WINDOW, 100 * cpu, wakeups))
        for v, m in zip(viewers, marks):
            got = [l for l in v.lines_since(m) if l.split()[0] in ("update", "frame")]
            expect(not got, "%s received updates while idle: %r" % (v.name, got[:5]))
            expect(v.alive(), "%s disconnected" % v.name)
        expect(cpu < MAX_CPU, "oriel used %.2f%% CPU while idle with 3 viewers "
               "(bound %.0f%%)" % (100 * cpu, 100 * MAX_CPU))
        expect(wakeups < MAX_WAKEUPS, "oriel woke up %d times in %.0fs while idle "
               "with 3 viewers (bound %d)" % (wakeups, WINDOW, MAX_WAKEUPS))


if __name__ == "__main__":
    harness.run(main)
