#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Remote control through the portal shows on oriel's sharing indicator,
and the person can stop it there.

A RemoteDesktop session with a keyboard and pointer and no screen cast
(portal_client.py through the real frontend, the policy allowing it):
- no badge before Start; once started, the badge is at the top right of
  the output, though nothing is cast (oriel lists no cast);
- the session types into an xterm the person focused; it then presses
  Shift and holds it;
- the person clicks the badge: the client gets Session.Closed, the badge
  goes, and the Shift the session held is released (the person typing "a" into the xterm gets "a", not "A");
- a new session shows the badge again; closing it normally hides it.
"""
import portal
import prompt
from harness import Session, expect, expect_eq, run
from test_portal_remote_desktop import (KEY_LEFTSHIFT, XK_RETURN, cast_ids,
                                        read_line, type_keysyms, xterm_reading)

ALLOW = "[remote-desktop]\ndefault = deny\nallow-unidentified = true\n"
OUTPUT = (1024, 768)


def person_focuses(s, win):
    s.click(win["x"] + win["width"] // 2, win["y"] + win["height"] // 2)
    s.wait_window(id=win["id"], where=lambda w: w["focused"],
                  what="the xterm to be focused by the person's click")


def main():
    with Session(outputs=["%dx%d" % OUTPUT]) as s:
        park = (OUTPUT[0] - 1, OUTPUT[1] - 1)
        s.pointer_move(*park)
        p = portal.start(s, policy=ALLOW)
        expect_eq(prompt.badges(s), [], "badges before any sharing")

        rd = portal.RemoteClient(s)
        expect_eq(rd.wait_ready(), [], "streams of a session without sources")
        found = prompt.wait_badge(s, True, "the indicator for remote control")
        expect_eq(len(found), 1, "badges")
        bx, by, bw, bh = found[0]
        expect(bx + bw <= OUTPUT[0] and by < 64,
               "the badge %r is not at the top right" % (found[0],))
        expect_eq(cast_ids(s), [], "casts of a remote-control-only session")

        # The session types; then it holds Shift.
        typed = s.tmp / "typed.txt"
        xterm, win = xterm_reading(s, typed, (40, 300), "remote typing")
        person_focuses(s, win)
        type_keysyms(rd, "remote")
        rd.notify("NotifyKeyboardKeysym", "iu", XK_RETURN, 1)
        rd.notify("NotifyKeyboardKeysym", "iu", XK_RETURN, 0)
        expect_eq(read_line(s, typed, xterm), "remote\n", "the line the session typed")
        typed2 = s.tmp / "typed2.txt"
        xterm2, win2 = xterm_reading(s, typed2, (40, 500), "after the stop")
        person_focuses(s, win2)
        rd.notify("NotifyKeyboardKeycode", "iu", KEY_LEFTSHIFT, 1)

        # The person stops it from the badge.
        s.click(*prompt.centre(found[0]))
        s.pointer_move(*park)
        rd.wait_step("session-closed")
        prompt.wait_badge(s, False, "the indicator to go")
        s.key_type("a\n")
        expect_eq(read_line(s, typed2, xterm2), "a\n",
                  "the person typing after the session was stopped holding Shift")

        # A new session shows it again; closing it hides it.
        rd2 = portal.RemoteClient(s)
        rd2.wait_ready()
        prompt.wait_badge(s, True, "the indicator for a second session")
        rd2.close()
        prompt.wait_badge(s, False, "the indicator to go with the closed session")
        p.check_alive()
        s.check_alive()


if __name__ == "__main__":
    run(main)
