#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Presentation feedback follows the presentation-time protocol on a
headless output, for a client that animates (new pixels every frame,
paced by frame callbacks) and for one that idles (commits that change
nothing): oriel-test-presentation checks 300 frames of each (clock,
order, timestamps, sequence numbers, refresh, flags, discarded frames).
The output runs at 50 Hz, so that the refresh checked is the output's and
not a default."""
import harness
from harness import Session, expect


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


if __name__ == "__main__":
    harness.run(main)
