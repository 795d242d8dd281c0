#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The control API refuses callers that are not allowed to inject input.

dbus-send is not on oriel's allowlist: injecting pointer motion or a key
through it is refused with org.freedesktop.DBus.Error.AccessDenied, while
listing windows (not screen reading) is answered.  orielctl from the build
tree is allowed and can do the same injection.
"""
import harness
from harness import Session, expect, tool

DENIED = "org.freedesktop.DBus.Error.AccessDenied"


def main():
    with Session() as s:
        def dbus_send(method, *args):
            return s.run_tool([tool("dbus-send"), "--bus=" + s.bus_address,
                               "--print-reply", "--dest=org.oriel.Compositor",
                               "/org/oriel/Compositor", method] + list(args),
                              check=False)

        for method, args in (
                ("org.oriel.Compositor.Input.PointerMotionAbsolute",
                 ["double:10", "double:10"]),
                ("org.oriel.Compositor.Input.KeyboardKeysym",
                 ["uint32:97", "boolean:true"]),
                ("org.oriel.Compositor.Input.PointerButton",
                 ["uint32:272", "boolean:true"]),
                ("org.oriel.Compositor.Input.PointerPosition", [])):
            res = dbus_send(method, *args)
            expect(res.returncode != 0, "dbus-send %s was not refused: %s" % (
                method, res.stdout))
            expect(DENIED in res.stderr, "dbus-send %s failed without %s: %s" % (
                method, DENIED, res.stderr.strip()))
            s.check_alive()

        res = dbus_send("org.oriel.Compositor.Windows.List")
        expect(res.returncode == 0, "Windows.List via dbus-send was refused: %s"
               % res.stderr.strip())
        expect("array" in res.stdout, "Windows.List reply is not an array: %r"
               % res.stdout)

        # The allowed client works.
        s.pointer_move(10, 10)
        s.orielctl("key", "keysym", "a", "tap")
        expect(s.windows() == [], "windows listed in an empty session")


if __name__ == "__main__":
    harness.run(main)
