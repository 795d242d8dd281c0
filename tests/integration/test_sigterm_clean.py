#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""SIGTERM shuts oriel down cleanly.

With Xwayland started eagerly (and answering X clients), SIGTERM makes
oriel exit 0, and afterwards nothing of the session is left: no
wayland-N socket or lock in XDG_RUNTIME_DIR, no /tmp/.X<N>-lock or
/tmp/.X11-unix/X<N> (nor the abstract X socket) for its display, and no
process of the session (Xwayland, the session command) still running.
"""
import os
import re
from pathlib import Path

import harness
from harness import NotYet, Session, expect, expect_eq, tool


def main():
    with Session(xwayland="eager") as s:
        n = s.display_number
        expect(n is not None, "the session command got no usable DISPLAY: %r" % s.display)
        wl = s.wayland_display
        expect((s.runtime_dir / wl).exists(), "no %s socket in the runtime dir" % wl)

        def xwayland_up():
            pid = s.xwayland_pid()
            if pid is None:
                raise NotYet("no Xwayland process for :%d yet" % n)
            return pid
        xpid = s.wait_for(xwayland_up, what="eager Xwayland to start")
        # Xwayland answers: X clients can talk to it.
        s.wait_for(lambda: s.x_tool(tool("xwininfo"), "-root", check=False).returncode == 0,
                   what="Xwayland on :%d to answer" % n)
        x_files = [Path("/tmp/.X%d-lock" % n), Path("/tmp/.X11-unix/X%d" % n)]
        for f in x_files:
            expect(f.exists(), "%s does not exist while Xwayland runs" % f)
        before = set(s.session_pids()) - {s.dbus.pid}
        expect(xpid in before and s.oriel.pid in before,
               "session processes not found: %r" % before)

        status = s.stop()
        expect_eq(status, 0, "oriel's exit status after SIGTERM")

        left = [e for e in os.listdir(s.runtime_dir)
                if re.fullmatch(r"wayland-\d+(\.lock)?", e)]
        expect(not left, "left in XDG_RUNTIME_DIR: %r" % left)
        # Xwayland dies when its connections close, which may take a moment
        # after oriel's exit: wait (bounded) for the session to be gone.
        # (Another session may take display :N at once; files that belong
        # to a live process outside this session are not leftovers.)
        # "This session" is every process carrying its XDG_RUNTIME_DIR, which
        # includes any X server oriel (re)started while shutting down.
        def all_gone():
            ours = (before | set(s.session_pids())) - {s.dbus.pid}
            alive = sorted(p for p in ours if harness.pid_alive(p))
            if alive:
                raise NotYet("still running: %s" % ", ".join(
                    "%d (%s)" % (p, harness.proc_comm(p)) for p in alive))
            left = harness.x_display_leftovers(n, ours)
            if left:
                raise NotYet("X display :%d left behind: %s" % (n, "; ".join(left)))
            return True
        s.wait_for(all_gone, timeout=10, what="the session's processes and "
                   "X display to be gone", check_alive=False)


if __name__ == "__main__":
    harness.run(main)
