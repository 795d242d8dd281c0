#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--vnc-idle-timeout: a viewer without input goes, one with input stays.

Two viewers connect to a session with --vnc-idle-timeout 3. One sends
nothing but its update requests: oriel disconnects it (its last line is
`disconnected`) and says why in its log. The other moves the pointer
every second meanwhile: it is still connected and still gets updates
after the first one went. Without the option, a viewer is never idled out
(the first session's viewer outlived the timeout by then).
"""
import time

import vnc
from harness import Session, expect, expect_eq

TIMEOUT_S = 3


def main():
    port = vnc.free_port()
    args = vnc.vnc_args(port, "--vnc-idle-timeout", TIMEOUT_S)
    with Session(outputs=["320x240"], args=args) as s:
        vnc.wait_listening(s, vnc.tcp(port))
        idle = vnc.Viewer(s, vnc.tcp(port), name="idle")
        busy = vnc.Viewer(s, vnc.tcp(port), name="busy")
        idle.wait_connected()
        busy.wait_connected()
        started = time.monotonic()
        x = 0
        while idle.proc.poll() is None and time.monotonic() - started < 4 * TIMEOUT_S:
            x = (x + 7) % 300
            busy.pointer(10 + x, 20)
            time.sleep(1)
        expect_eq(idle.wait_exit_line(), "disconnected", "the idle viewer's last line")
        expect(time.monotonic() - started >= TIMEOUT_S - 0.5,
               "the idle viewer went before its timeout")
        expect("no input for %d s (--vnc-idle-timeout)" % TIMEOUT_S in s.log_text(),
               "oriel's log does not say why the viewer went")
        expect(busy.proc.poll() is None, "the viewer with input was disconnected too")
        mark = busy.mark()
        busy.send("full")
        busy.wait_line(lambda l: l.startswith("frame"), since=mark,
                       what="an update for the viewer with input")

    # Off by default: nobody is idled out.
    with Session(outputs=["320x240"], args=vnc.vnc_args(port)) as s:
        vnc.wait_listening(s, vnc.tcp(port))
        viewer = vnc.Viewer(s, vnc.tcp(port), name="default")
        viewer.wait_connected()
        end = time.monotonic() + TIMEOUT_S + 1
        while time.monotonic() < end:
            expect(viewer.proc.poll() is None, "a viewer was disconnected without the option")
            time.sleep(0.25)


if __name__ == "__main__":
    import harness
    harness.run(main)
