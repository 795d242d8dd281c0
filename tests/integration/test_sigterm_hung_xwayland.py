#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""SIGTERM shuts oriel down even when Xwayland hangs.

An X client (xlogo) is mapped, then Xwayland is stopped with SIGSTOP, so it
can no longer exit on its own when oriel closes its Wayland connection.
SIGTERM must still make oriel exit 0 in bounded time, with the hung X
server gone afterwards (wlroots frees its window manager, and with it every
X window, only once the X server hangs up: under the sanitizers a server
left behind shows up as leaked windows).
"""
import os
import signal

import harness
from harness import NotYet, Session, expect_eq, tool


def main():
    with Session(outputs=["800x600"]) as s:
        s.spawn_x([tool("xlogo"), "-geometry", "200x150+40+40", "-title", "hung"])
        s.wait_window(app_id="XLogo", kind="x11", title="hung")
        xpid = s.wait_for(lambda: s.xwayland_pid(), what="Xwayland's process")

        os.kill(xpid, signal.SIGSTOP)
        try:
            status = s.stop()
            expect_eq(status, 0, "oriel's exit status after SIGTERM")

            def x_server_gone():
                if harness.pid_alive(xpid):
                    raise NotYet("Xwayland (pid %d) still exists, state %s" % (
                        xpid, harness.proc_state(xpid)))
                return True
            s.wait_for(x_server_gone, timeout=5, what="the hung Xwayland to be gone",
                       check_alive=False)
        finally:
            # A stopped X server left behind must not outlive the test.
            if harness.pid_alive(xpid):
                os.kill(xpid, signal.SIGKILL)


if __name__ == "__main__":
    harness.run(main)
