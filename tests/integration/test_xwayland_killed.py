#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Xwayland dying does not take the session down.

A Wayland colour client and an X client (xlogo) are mapped.  Xwayland is
killed with SIGKILL.  oriel keeps running, the X window goes away, the
Wayland client is still listed and still on screen, and a new X client
can connect to the same DISPLAY and maps.

Xwayland is killed as soon as the X client has mapped (well within its
first 5 seconds): wlroots 0.15 intends to restart only a server that ran
longer than that, and a session must survive an X server that dies early
too.
"""
import os
import signal

import harness
from harness import Session, expect, expect_eq, geometry, tool

WL_COLOUR = (0xd0, 0x20, 0x40)
X_COLOUR = (0x12, 0xc4, 0xa7)
X2_COLOUR = (0x30, 0x50, 0xe0)


def main():
    with Session(outputs=["1024x768"]) as s:
        c, wl = s.colour_window_at(WL_COLOUR, (300, 200), (600, 100), "survivor",
                                   "org.oriel.test.survivor")

        xlogo = _xlogo(s, X_COLOUR, "+50+400")
        xw = s.wait_window(app_id="XLogo", kind="x11", title="first")

        xpid = s.wait_for(lambda: s.xwayland_pid(), what="Xwayland's process")
        harness.log("killing Xwayland (pid %d), %.1fs old" % (xpid, harness.proc_age(xpid)))
        os.kill(xpid, signal.SIGKILL)
        s.wait_for(lambda: not harness.pid_alive(xpid), what="Xwayland to die")
        xlogo.wait(timeout=15)  # its display connection broke
        s.wait_no_window(id=xw["id"])

        # oriel is alive (every wait checks it) and the Wayland client too.
        expect(c.alive(), "the Wayland client died with Xwayland (status %s)"
               % c.proc.returncode)
        wl2 = s.window_by(id=wl["id"])
        expect(wl2 is not None, "the Wayland client is no longer listed")
        expect_eq(geometry(wl2), geometry(wl), "the Wayland client's geometry")
        s.park_pointer()
        s.wait_colour(geometry(wl), WL_COLOUR,
                      what="the Wayland client to be still on screen")

        # A new X client can connect to the same DISPLAY and maps.
        _xlogo(s, X2_COLOUR, "+50+400", title="second")
        xw2 = s.wait_window(app_id="XLogo", kind="x11", title="second",
                            where=lambda w: (w["width"], w["height"]) == (200, 150),
                            timeout=30)
        new_pid = s.xwayland_pid()
        expect(new_pid is not None and new_pid != xpid,
               "no new Xwayland process (old %d, now %r)" % (xpid, new_pid))
        s.wait_colour(geometry(xw2), X2_COLOUR,
                      what="the new X client's colour over its geometry")


def _xlogo(s, colour, position, title="first"):
    hexc = "#" + harness.colour_hex(colour)
    return s.spawn_x([tool("xlogo"), "-geometry", "200x150" + position,
                      "-bg", hexc, "-fg", hexc, "-title", title])


if __name__ == "__main__":
    harness.run(main)
