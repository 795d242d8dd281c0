#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
The portal backend ends with its session bus: when the bus goes away it
exits instead of lingering with nothing to serve (it would stay behind
after every session, and after its package is purged).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--portal", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as runtime:
        daemon = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1",
             "--address=unix:dir=" + runtime], stdout=subprocess.PIPE, text=True)
        address = daemon.stdout.readline().strip()
        env = {"PATH": "/usr/bin:/bin", "HOME": runtime, "XDG_RUNTIME_DIR": runtime,
               "DBUS_SESSION_BUS_ADDRESS": address}
        log = open(os.path.join(runtime, "portal.log"), "w+")
        portal = subprocess.Popen([args.portal, "--verbose"], env=env, stderr=log)
        # Up once it owns its name.
        deadline = time.monotonic() + 10
        while True:
            owner = subprocess.run(
                ["dbus-send", "--bus=" + address, "--print-reply",
                 "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                 "org.freedesktop.DBus.NameHasOwner",
                 "string:org.freedesktop.impl.portal.desktop.oriel"],
                capture_output=True, text=True, timeout=10)
            if "true" in owner.stdout:
                break
            if time.monotonic() > deadline or portal.poll() is not None:
                print("FAIL: the backend did not take its name", file=sys.stderr)
                portal.kill()
                daemon.kill()
                return 1
            time.sleep(0.05)
        daemon.terminate()
        daemon.wait(timeout=10)
        try:
            status = portal.wait(timeout=10)
        except subprocess.TimeoutExpired:
            portal.kill()
            portal.wait()
            print("FAIL: the backend still runs 10 s after its bus went away",
                  file=sys.stderr)
            return 1
        log.seek(0)
        if status != 0:
            # A clean exit: under the sanitizers, also no leak.
            print("FAIL: the backend exited with status %d; its log:\n%s" %
                  (status, log.read()), file=sys.stderr)
            return 1
        print("the backend exited cleanly after its bus went away")
        return 0


if __name__ == "__main__":
    sys.exit(main())
