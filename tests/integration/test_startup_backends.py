#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A backend named on the command line that cannot start stops oriel with
a sentence, not a crash: --backend x11 with no X server, --backend wayland
with no compositor, --backend drm without a DRM device (at once, not after
a seat's timeout). --backend auto with a WAYLAND_DISPLAY and DISPLAY that
nothing answers falls back, as auto does, and starts headless."""
import glob
import os
import time

import harness
import startup
from harness import Session, expect


def free_x_display():
    for n in range(90, 200):
        if not os.path.exists("/tmp/.X11-unix/X%d" % n) and \
                not os.path.exists("/tmp/.X%d-lock" % n) and \
                "@/tmp/.X11-unix/X%d" % n not in harness.unix_sockets():
            return ":%d" % n
    raise harness.TestFailure("no free X display number to point at")


def main():
    display = free_x_display()
    failure = startup.start_failing(["--backend", "x11", "--renderer", "pixman"],
                                    env={"DISPLAY": display})
    startup.expect_message(failure, "no X display at %s for --backend x11" % display,
                           "--backend headless")
    failure = startup.start_failing(["--backend", "x11", "--renderer", "pixman"])
    startup.expect_message(failure, "DISPLAY is not set")

    failure = startup.start_failing(["--backend", "wayland", "--renderer", "pixman"],
                                    env={"WAYLAND_DISPLAY": "wayland-nobody"})
    startup.expect_message(failure, "no Wayland compositor at wayland-nobody",
                           "--backend headless")

    with Session(args=["--backend", "auto"], xwayland="off",
                 env={"WAYLAND_DISPLAY": "wayland-nobody", "DISPLAY": display}) as s:
        names = [o["name"] for o in s.outputs()]
        expect(names and all(n.startswith("HEADLESS-") for n in names),
               "--backend auto with nothing to nest in: outputs %r" % names)

    if glob.glob("/dev/dri/card*"):
        harness.log("this machine has DRM devices: --backend drm not tried")
        return
    began = time.monotonic()
    failure = startup.start_failing(["--backend", "drm", "--renderer", "pixman"])
    took = time.monotonic() - began
    startup.expect_message(failure, "no DRM/KMS device", "--backend headless")
    expect(took < harness.T(5), "--backend drm took %.1fs to fail" % took)


if __name__ == "__main__":
    harness.run(main)
