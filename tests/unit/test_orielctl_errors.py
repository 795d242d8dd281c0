#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
orielctl with nothing to talk to: no session bus at all, a bus address
whose socket is gone, and a bus (a private dbus-daemon) without oriel on
it. Each says that no oriel is running on this bus and how to point
orielctl at one, never the bus library's bare errno text, and exits 1;
usage errors exit 2.
"""

import argparse
import os
import subprocess
import sys
import tempfile

failed = 0


def expect(orielctl, argv, env, status, needles):
    global failed
    result = subprocess.run([orielctl] + argv, env=env, capture_output=True, text=True,
                            timeout=30)
    problems = []
    if result.returncode != status:
        problems.append("exit status %d, not %d" % (result.returncode, status))
    for needle in needles:
        if needle not in result.stderr:
            problems.append("no %r in stderr" % needle)
    if "No medium found" in result.stderr:
        problems.append("the bus library's message leaks through")
    if problems:
        failed += 1
        print("FAIL: orielctl %s: %s\nstderr: %s" % (" ".join(argv), "; ".join(problems),
                                                     result.stderr), file=sys.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--orielctl", required=True)
    args = parser.parse_args()
    ctl = args.orielctl
    hint = "DBUS_SESSION_BUS_ADDRESS"
    with tempfile.TemporaryDirectory() as runtime:
        base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": runtime,
                "XDG_RUNTIME_DIR": runtime}

        # No bus at all: no address, no $XDG_RUNTIME_DIR/bus.
        for argv in (["windows"], ["outputs"], ["screenshot", "x.png"],
                     ["key", "type", "a"], ["vnc", "clients"], ["cast", "list"]):
            expect(ctl, argv, base, 1, ["no oriel is running on this bus", hint])

        # An address whose socket does not exist.
        gone = dict(base, DBUS_SESSION_BUS_ADDRESS="unix:path=%s/gone" % runtime)
        expect(ctl, ["windows"], gone, 1,
               ["no oriel is running on this bus", runtime + "/gone", hint])

        # A bus without oriel on it.
        daemon = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1",
             "--address=unix:dir=" + runtime], stdout=subprocess.PIPE, text=True)
        try:
            address = daemon.stdout.readline().strip()
            on_bus = dict(base, DBUS_SESSION_BUS_ADDRESS=address)
            expect(ctl, ["windows"], on_bus, 1,
                   ["no oriel is running on this bus", "org.oriel.Compositor", hint])
            expect(ctl, ["pointer", "move", "1", "2"], on_bus, 1,
                   ["no oriel is running on this bus"])
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)

        # Usage errors come first and exit 2, with or without a bus.
        expect(ctl, [], base, 2, ["no command given"])
        expect(ctl, ["frobnicate"], base, 2, ["unknown command"])
        expect(ctl, ["move", "1"], base, 2, ["usage"])
        expect(ctl, ["--bogus", "windows"], base, 2, ["unknown option"])
        expect(ctl, ["revoke", "not-an-id"], base, 2, ["grant id"])
    print("%d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
