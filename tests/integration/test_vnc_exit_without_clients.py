#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--exit-without-clients: a session nobody watches ends; one watched stays.

oriel runs with --exit-without-clients 2. A viewer connects at once and
stays for three times that long: the session goes on, and the viewer still
gets updates. Once it disconnects, oriel ends by itself, with status 0,
and says why in its log.
"""
import time

import vnc
from harness import Session, expect, expect_eq

TIMEOUT_S = 2


def main():
    port = vnc.free_port()
    args = vnc.vnc_args(port, "--exit-without-clients", TIMEOUT_S)
    with Session(outputs=["320x240"], args=args) as s:
        vnc.wait_listening(s, vnc.tcp(port))
        viewer = vnc.Viewer(s, vnc.tcp(port), name="watching")
        viewer.wait_connected()
        end = time.monotonic() + 3 * TIMEOUT_S
        while time.monotonic() < end:
            expect(s.oriel.poll() is None, "oriel ended while a viewer watched")
            time.sleep(0.25)
        mark = viewer.mark()
        viewer.send("full")
        viewer.wait_line(lambda l: l.startswith("frame"), since=mark,
                         what="an update after the timeout's length")
        viewer.close()
        expect_eq(s.wait_exit(timeout=10 * TIMEOUT_S), 0, "oriel's status")
        expect("no viewer for %d s (--exit-without-clients)" % TIMEOUT_S in s.log_text(),
               "oriel's log does not say why the session ended")


if __name__ == "__main__":
    import harness
    harness.run(main)
