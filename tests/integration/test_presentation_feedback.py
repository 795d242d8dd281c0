#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Presentation feedback follows the presentation-time protocol on a
headless output, for a client that animates (new pixels every frame,
paced by frame callbacks) and for one that idles (commits that change
nothing): oriel-test-presentation checks 300 frames of each (clock,
order, timestamps, sequence numbers, refresh, flags, discarded frames).
The output runs at 50 Hz, so that the refresh checked is the output's and
not a default.

A change that comes in parts is shown in one frame: two windows commit
new pixels 0.3 ms apart, 100 times, and (nearly) every pair is shown by
one present (the same sequence number), not the first part a frame
before the second."""
import re

import harness
from harness import Session, expect

PAIRS = 100


def main():
    client = harness.exe("ORIEL_TEST_PRESENTATION")
    with Session(outputs=["640x480@50"], xwayland="off") as s:
        for mode in ("animated", "idle"):
            c = s.spawn([client, "--mode", mode, "--frames", "300"],
                        name="presentation-" + mode)
            status = c.wait(60)
            expect(status == 0, "presentation feedback, %s: exit %s:\n%s" % (
                mode, status, c.log()[-3000:]))
            harness.log("%s: %s" % (mode, c.log().strip().splitlines()[-1]))
        c = s.spawn([client, "--mode", "pairs", "--frames", str(PAIRS)], name="presentation-pairs")
        status = c.wait(60)
        expect(status == 0, "presentation feedback, pairs: exit %s:\n%s" % (
            status, c.log()[-3000:]))
        m = re.search(r"pairs (\d+) shown together (\d+)", c.log())
        expect(m, "no pairs line:\n%s" % c.log()[-3000:])
        together = int(m.group(2))
        harness.log("pairs: %d of %d shown by one present" % (together, PAIRS))
        # A busy machine may delay the second part past the gathering moment now and then.
        expect(together >= PAIRS * 3 // 4,
               "only %d of %d pairs of commits 0.3 ms apart were shown together" % (
                   together, PAIRS))


if __name__ == "__main__":
    harness.run(main)
