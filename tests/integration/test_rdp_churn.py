#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""RDP connections leave nothing behind in the session.

One session serves RDP with a users file. oriel-test-rdpclient connects,
logs on, waits for every pixel of the screen and disconnects, four at a
time: first with classic bitmap updates, then through the graphics
pipeline (AVC420 asked for). oriel's resident set (VmRSS in
/proc/PID/status) is read once oriel has let go of the first 50
connections of each kind, and after the last: it may grow by less than
2 MB, with classic updates and through the pipeline alike. The CI runs
150 of each after the first 50, so a leak of more than about 14 KB a
connection fails; bench/run-rdp-churn runs 1000 (ORIEL_CHURN_CONNECTIONS).

Under AddressSanitizer the resident set says nothing (freed memory waits
in its quarantine): a few connections run, and LeakSanitizer's report at
oriel's exit fails the test on what they left.
"""
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect

COLOUR = (0x30, 0x90, 0x50)
PASSWORD = "churn-Pass-7310"
WARMUP = 50
CONNECTIONS = int(os.environ.get("ORIEL_CHURN_CONNECTIONS", "150"))
PARALLEL = 4
LIMIT_KB = 2048


def rss_kb(s):
    """oriel's VmRSS once it has let go of every connection."""
    def none_left():
        left = s.orielctl("rdp", "clients", json=True)
        if left:
            raise harness.NotYet("%d RDP clients still listed" % len(left))
        return True
    s.wait_for(none_left, what="oriel to let go of every RDP client")
    for line in Path("/proc/%d/status" % s.oriel.pid).read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise harness.TestFailure("no VmRSS in oriel's status")


def sanitized(pid):
    return "libasan" in Path("/proc/%d/maps" % pid).read_text()


def connect(s, port, account, n):
    with ThreadPoolExecutor(PARALLEL) as pool:
        for rc, img, lines in pool.map(lambda _: rdp.rdpclient_snapshot(s, port, **account),
                                       range(n)):
            expect(rc == 0 and img is not None,
                   "a connection failed (%d):\n%s" % (rc, "\n".join(lines[-20:])))
    # The snapshots are not looked at: the temporary directory stays small.
    for ppm in s.tmp.glob("rdp-*.ppm"):
        ppm.unlink()


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-churn-") as d:
        users = vnc.write_users_file(Path(d), [("churn", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["640x480"], args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            s.colour_window_at(COLOUR, (200, 150), (100, 80), "colour", "org.oriel.test.c")
            rdp.wait_listening(s, port)
            s.park_pointer()
            secret = rdp.write_secret(s, PASSWORD)
            report = []
            asan = sanitized(s.oriel.pid)
            for gfx in ("off", "avc420"):
                account = dict(user="churn", password_file=secret, size=(640, 480), gfx=gfx)
                if asan:
                    connect(s, port, account, 2 * PARALLEL)
                    continue
                connect(s, port, account, WARMUP)
                before = rss_kb(s)
                connect(s, port, account, CONNECTIONS)
                after = rss_kb(s)
                report.append((gfx, before, after))
                harness.log("--gfx %s: VmRSS %d kB after %d connections, %d kB after %d more "
                            "(%+d kB, %.1f kB per connection)" % (
                                gfx, before, WARMUP, after, CONNECTIONS, after - before,
                                (after - before) / CONNECTIONS))
            for gfx, before, after in report:
                expect(after - before < LIMIT_KB,
                       "--gfx %s: oriel's RSS grew by %d kB over %d connections "
                       "(%d -> %d kB)" % (gfx, after - before, CONNECTIONS, before, after))


if __name__ == "__main__":
    harness.run(main)
