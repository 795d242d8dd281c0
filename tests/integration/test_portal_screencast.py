#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The ScreenCast portal end to end, through the real frontend.

pipewire and wireplumber run in the session; xdg-desktop-portal-oriel
(build tree, --replace) and /usr/libexec/xdg-desktop-portal -r run on its
bus with XDG_DESKTOP_PORTAL_DIR holding our oriel.portal and
XDG_CURRENT_DESKTOP=oriel. A scripted client of the public API
(portal_client.py: one connection, Request.Response signals) runs
CreateSession -> SelectSources -> Start:

- with the policy allowing unidentified callers (a host process has the
  empty app_id), Start returns one monitor stream with the output's
  position and size; our C PipeWire consumer on its node gets 640x480
  frames with the colour window's pixels, and a window mapped later;
- the cast belongs to the backend (orielctl cast list), and closing the
  portal session stops it; a client that dies without closing ends it too;
- with the default policy (deny), Start answers "cancelled" (1) and no
  cast is created; the policy file is re-read at each Start;
- the backend's properties say version 4, monitor|window|virtual sources,
  hidden|embedded|metadata cursors; a direct caller other than the
  frontend is refused (AccessDenied);
- a cursor mode that is not one mode is refused, the backend goes on;
- the backend exits cleanly on SIGTERM (LSan-clean under the sanitizers).
"""
import json

import harness
import pipewire
import portal
from harness import NotYet, Session, expect, expect_eq, geometry, tool, T

RED = (0xd0, 0x20, 0x30)
GREEN = (0x20, 0xc0, 0x50)
ALLOW = "[screencast]\ndefault = deny\nallow-unidentified = true\n"
DENY = "# nobody at the session: deny\n[screencast]\ndefault = deny\n"


def impl_call(method, *args):
    return [tool("gdbus"), "call", "--session", "--dest",
            "org.freedesktop.impl.portal.desktop.oriel",
            "--object-path", "/org/freedesktop/portal/desktop",
            "--method", method] + list(args)


def cast_ids(s):
    return [c["id"] for c in json.loads(s.orielctl("cast", "list", "--json", json=False))]


def wait_no_casts(s, what):
    def none():
        ids = cast_ids(s)
        if ids:
            raise NotYet("casts %r" % ids)
        return True
    s.wait_for(none, T(10), what)


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        pipewire.start(s)
        out = s.output()
        a = s.spawn_colour(RED, size=(200, 150), title="red", app_id="org.oriel.test.red")
        a.wait_ready(size=(200, 150))
        rect_a = geometry(s.wait_window(app_id="org.oriel.test.red"))
        s.wait_colour(rect_a, RED)

        p = portal.start(s, policy=ALLOW)

        # The backend's properties, as the frontend reads them.
        for prop, want in (("AvailableSourceTypes", 7), ("AvailableCursorModes", 7),
                           ("version", 4)):
            res = s.run_tool(impl_call("org.freedesktop.DBus.Properties.Get",
                                       "org.freedesktop.impl.portal.ScreenCast", prop))
            expect_eq(res.stdout.strip(), "(<uint32 %d>,)" % want, prop)
        # Only the frontend may call the backend: a direct caller could claim
        # any app_id. Well-formed or not, it is refused and nothing breaks.
        for args in (("org.freedesktop.impl.portal.ScreenCast.CreateSession",
                      "/org/freedesktop/portal/desktop/request/x/y",
                      "/org/freedesktop/portal/desktop/session/x/y", "org.example.App", "{}"),
                     ("org.freedesktop.impl.portal.ScreenCast.SelectSources",
                      "/r/1", "/s/1", "", "{'types': <'monitor'>}")):
            res = s.run_tool(impl_call(*args), check=False)
            expect(res.returncode != 0 and "AccessDenied" in res.stderr,
                   "a direct call to the backend was not refused: %r %r" % (
                       res.stdout, res.stderr))
        p.check_alive()

        # Allowed: a monitor stream at the output's position and size.
        c = portal.Client(s)
        streams = c.wait_started()
        expect_eq(len(streams), 1, "number of streams")
        node, props = streams[0]
        expect_eq(props.get("source_type"), 1, "source_type (monitor)")
        expect_eq(tuple(props.get("size", ())), (out["width"], out["height"]), "stream size")
        expect_eq(tuple(props.get("position", ())), (out["x"], out["y"]), "stream position")
        casts = json.loads(s.orielctl("cast", "list", "--json", json=False))
        expect_eq([x["node_id"] for x in casts], [node], "oriel's casts (node ids)")

        consumer = pipewire.Consumer(s, node)
        expect_eq(consumer.wait_format(), (640, 480, "BGRx"), "negotiated format")
        consumer.wait_frames(1)

        def shows(rect, rgb):
            def check():
                f = consumer.frames()[-1]
                img = consumer.image(f["seq"])
                bad = img.first_mismatch(rect, rgb, tolerance=2)
                if bad is not None:
                    raise NotYet("frame %d: %r" % (f["seq"], bad))
                return f
            return check
        s.wait_for(shows(rect_a, RED), T(10), "the red window in the portal's stream")

        b = s.spawn_colour(GREEN, size=(120, 90), title="green", app_id="org.oriel.test.green")
        b.wait_ready(size=(120, 90))
        rect_b = geometry(s.wait_window(app_id="org.oriel.test.green"))
        s.wait_for(shows(rect_b, GREEN), T(10), "a window mapped later in the stream")

        # Closing the portal session stops the cast.
        c.close()
        wait_no_casts(s, "the cast to stop when the portal session closes")
        consumer.client.kill()

        # A client that dies without closing: the frontend closes the session.
        c2 = portal.Client(s, "--cursor-mode", "2")
        streams2 = c2.wait_started()
        expect_eq(len(streams2), 1, "streams of a second session")
        expect(cast_ids(s), "the second session's cast is listed")
        c2.client.kill()
        wait_no_casts(s, "the cast to stop when the client leaves the bus")

        # Denied by the policy file (re-read at each Start): cancelled, no cast.
        p.set_policy(DENY)
        c3 = portal.Client(s)
        st = c3.wait_step("Start")
        expect_eq((st.get("step"), st.get("response")), ("Start", 1),
                  "Start's response under a deny policy")
        expect_eq(st.get("streams"), [], "streams under a deny policy")
        expect(not cast_ids(s), "a denied request created a cast")

        # A cursor mode that is not one mode is refused, nothing breaks.
        p.set_policy(ALLOW)
        c4 = portal.Client(s, "--cursor-mode", "3")
        st = c4.wait_step("SelectSources")
        expect(st.get("response", 0) != 0 or "error" in st,
               "cursor mode 3 was accepted: %r" % st)
        p.check_alive()

        # And the backend still serves a new session.
        c5 = portal.Client(s, "--multiple")
        expect_eq(len(c5.wait_started()), 1, "streams with multiple on one output")
        c5.close()
        wait_no_casts(s, "the last cast to stop")

        # A cast stopped in oriel (as at the badge) closes its session.
        c6 = portal.Client(s)
        expect_eq(len(c6.wait_started()), 1, "streams of a session stopped in oriel")
        for cast_id in cast_ids(s):
            s.orielctl("cast", "stop", cast_id)
        c6.wait_step("session-closed")

        # Casts ended by a close, or by a client leaving, are ordinary stops.
        stray = [l for l in p.backend.log().splitlines() if "no cast with id" in l]
        expect(not stray, "the backend logged ordinary stops as errors: %r" % stray[:3])
        status = p.stop_backend()
        expect_eq(status, 0, "the backend's exit status on SIGTERM (log: %s)"
                  % p.backend.log()[-2000:])
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
