#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""X lock files and sockets that another user left or squats do not stop
oriel from taking a display (--x-display).

In a mount and network namespace of the test's own (a private /tmp, and
abstract sockets of its own), the user nobody, from a process of its own:
- :40: writes a lock that holds no pid and binds the abstract socket;
- :41: writes a lock with its own live pid (a real holder);
- :42: writes a lock that holds no pid ("squatted");
- :43-:1100: binds the abstract sockets, more than the 1000 numbers the
  search used to stop after;
- :1101: writes a lock that names root's pid 1, not a process of nobody's;
- :0-:32: binds the abstract sockets, all of the displays among which
  wlroots takes one for a moment while Xwayland starts.
Then a root oriel with --x-display 40 passes over :40 and :41, removes
the stale lock of :42, takes :42 and shows its X client; a second one
passes over :40-:1100 and takes :1101, whose lock names someone else's
process. nobody's real lock (:41) is left as it was, and no lock of either
oriel is left once they stop.
"""
import os
import resource
import subprocess
import sys

import harness
from harness import Session, expect, expect_eq, geometry, tool

NOBODY = 65534
# Not a python under /root, which nobody may not run.
SYSTEM_PYTHON = "/usr/bin/python3"
FIRST_COLOUR = (0x22, 0xaa, 0x55)
SECOND_COLOUR = (0xcc, 0x33, 0x88)

SQUATTER = r"""
import os, socket, sys
def lock(n, text):
    with open("/tmp/.X%d-lock" % n, "w") as f:
        f.write(text)
def bind(n):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind("\0/tmp/.X11-unix/X%d" % n)
    s.listen(1)
    return s
held = [bind(40)]
lock(40, "squatted\n")
lock(41, "%10d\n" % os.getpid())
lock(42, "squatted\n")
held += [bind(n) for n in range(43, 1101)]
held += [bind(n) for n in range(0, 33)]
lock(1101, "%10d\n" % 1)
print("ready", flush=True)
sys.stdin.read()
"""


def as_nobody():
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def show_x_client(s, colour, title):
    hexc = "#" + harness.colour_hex(colour)
    s.spawn_x([tool("xlogo"), "-geometry", "200x150+60+60", "-bg", hexc, "-fg", hexc,
               "-title", title])
    w = s.wait_window(app_id="XLogo", kind="x11", title=title,
                      where=lambda w: (w["width"], w["height"]) == (200, 150), timeout=30)
    s.park_pointer()
    s.wait_colour(geometry(w), colour, what="the X client '%s' on screen" % title)


def lock_text(n):
    with open("/tmp/.X%d-lock" % n) as f:
        return f.read()


def inside():
    squatter = subprocess.Popen([SYSTEM_PYTHON, "-c", SQUATTER], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, preexec_fn=as_nobody)
    try:
        expect_eq(squatter.stdout.readline().strip(), "ready", "nobody's squatter")
        for n in (40, 41, 42, 1101):
            expect_eq(os.stat("/tmp/.X%d-lock" % n).st_uid, NOBODY, ":%d's lock's owner" % n)
        real_lock = lock_text(41)

        with Session(outputs=["640x480"], args=["--x-display", "40"]) as first:
            expect_eq(first.display, ":42", "the first session's DISPLAY")
            expect_eq(int(lock_text(42)), first.oriel.pid, ":42's lock holds the first oriel's pid")
            show_x_client(first, FIRST_COLOUR, "first")
            with Session(outputs=["640x480"], args=["--x-display", "40"]) as second:
                expect_eq(second.display, ":1101", "the second session's DISPLAY")
                expect_eq(int(lock_text(1101)), second.oriel.pid,
                          ":1101's lock holds the second oriel's pid")
                show_x_client(second, SECOND_COLOUR, "second")
        expect_eq(lock_text(41), real_lock, "nobody's live lock of :41")
        for n in (42, 1101):
            expect(not os.path.exists("/tmp/.X%d-lock" % n), ":%d's lock was left" % n)
    finally:
        squatter.kill()
        squatter.wait()


if __name__ == "__main__":
    harness.run_in_namespaces(inside)
