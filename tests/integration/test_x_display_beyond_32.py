#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""X displays beyond :32 (--x-display), for hosts of many sessions.

wlroots 0.15 looks for an X display among :0-:32 only, and holds the one
it takes for as long as Xwayland runs, so at most 33 sessions fit on a
host. With --x-display N oriel takes the first free display from :N
itself and holds wlroots' display for a moment only.

In a mount and network namespace of the test's own (a private /tmp, and
abstract sockets of its own), :1-:32 are held the way X servers hold
them (a lock file with a live pid, a listening abstract socket), which
leaves wlroots :0 alone. Then:
- a lazy oriel with --x-display 33 gets :33 and shows its X client;
- while it runs, an eager one gets :34 (wlroots' :0 was free again) and
  shows its own X client, and neither sees the other's window;
- :0 is free again: no lock, no socket file, its abstract name unbound;
- after its Xwayland is killed, the first oriel serves a new X client on
  :33 again;
- a display number out of range is refused on the command line.
"""
import os
import signal
import socket
import subprocess
import sys

import harness
import startup
from harness import Session, Skip, TestFailure, expect, expect_eq, geometry, tool

FIRST_COLOUR = (0x22, 0xaa, 0x55)
SECOND_COLOUR = (0xcc, 0x33, 0x88)
AGAIN_COLOUR = (0x33, 0x66, 0xdd)


def hold_displays(numbers):
    """Holds each display as an X server would; returns the sockets."""
    held = []
    for n in numbers:
        with open("/tmp/.X%d-lock" % n, "w") as f:
            f.write("%10d\n" % os.getpid())
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind("\0/tmp/.X11-unix/X%d" % n)
        s.listen(1)
        held.append(s)
    return held


def abstract_free(n):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.bind("\0/tmp/.X11-unix/X%d" % n)
        return True
    except OSError:
        return False
    finally:
        s.close()


def xlogo(s, colour, title):
    hexc = "#" + harness.colour_hex(colour)
    return s.spawn_x([tool("xlogo"), "-geometry", "200x150+60+60", "-bg", hexc,
                      "-fg", hexc, "-title", title])


def show_x_client(s, colour, title):
    xlogo(s, colour, title)
    w = s.wait_window(app_id="XLogo", kind="x11", title=title,
                      where=lambda w: (w["width"], w["height"]) == (200, 150), timeout=30)
    s.park_pointer()
    s.wait_colour(geometry(w), colour, what="the X client '%s' on screen" % title)
    return w


def x_windows(s):
    return [w for w in s.windows() if w.get("kind") == "x11"]


def in_namespace():
    harness.private_tmp()
    held = hold_displays(range(1, 33))

    with Session(outputs=["640x480"], args=["--x-display", "33"]) as first:
        expect_eq(first.display, ":33", "the lazy session's DISPLAY")
        expect(first.xwayland_pid() is None, "Xwayland ran before any X client (lazy)")
        show_x_client(first, FIRST_COLOUR, "first")

        with Session(outputs=["640x480"],
                     args=["--x-display", "33", "--xwayland", "eager"]) as second:
            expect_eq(second.display, ":34", "the eager session's DISPLAY")
            show_x_client(second, SECOND_COLOUR, "second")
            expect_eq([w["title"] for w in x_windows(first)], ["first"],
                      "X windows of the first session")
            expect_eq([w["title"] for w in x_windows(second)], ["second"],
                      "X windows of the second session")

        expect(not os.path.exists("/tmp/.X0-lock"), "wlroots' :0 lock was left")
        expect(not os.path.exists("/tmp/.X11-unix/X0"), "wlroots' :0 socket file was left")
        expect(abstract_free(0), "wlroots' :0 abstract socket is still bound")
        expect(not os.path.exists("/tmp/.X34-lock"), "the second session's lock was left")

        xpid = first.wait_for(lambda: first.xwayland_pid(), what="the first Xwayland")
        os.kill(xpid, signal.SIGKILL)
        first.wait_for(lambda: not x_windows(first), what="the X window to go")
        show_x_client(first, AGAIN_COLOUR, "again")
        again = first.xwayland_pid()
        expect(again and again != xpid and ":33" in harness.proc_cmdline(again),
               "no new Xwayland on :33 (%r)" % (again and harness.proc_cmdline(again)))
        expect(os.path.exists("/tmp/.X11-unix/X33"), "no socket file for :33")
    for s in held:
        s.close()


def main():
    probe = subprocess.run([tool("unshare"), "-m", "-n", "true"], stderr=subprocess.PIPE)
    if probe.returncode != 0:
        raise Skip("no mount or network namespaces: %s" % probe.stderr.decode().strip())
    failure = startup.start_failing(["--backend", "headless", "--x-display", "59536"])
    startup.expect_message(failure, '"59536" for --x-display', "a display number")
    res = subprocess.run([tool("unshare"), "-m", "-n", sys.executable, sys.argv[0],
                          "--in-namespace"], env=os.environ)
    if res.returncode != 0:
        raise TestFailure("the part in the namespaces failed (exit %d)" % res.returncode)


if __name__ == "__main__":
    if sys.argv[1:] == ["--in-namespace"]:
        harness.run(in_namespace)
    else:
        harness.run(main)
