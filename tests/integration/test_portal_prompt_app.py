#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The prompt as an app like Chromium meets it.

- The app is named the way people know it: the Name of the .desktop file
  whose Exec runs its executable (here one in $XDG_DATA_HOME).
- Asking again within a few seconds about the same kind of source (the
  picker's preview, then Share) gets the person's first answer: no second
  prompt, and the same source is cast.
- The app's own windows (here a window of a process the app started, as
  a browser's sharing bar is its own) are never preselected and come last
  in the list: Allow as the prompt stands shares another window.
"""
import json
import os
import shlex

import harness
import pipewire
import portal
import prompt
from harness import NotYet, Session, expect, expect_eq, T

ASK = "[screencast]\ndefault = ask\n"
WINDOW = "2"
RED = (0xd0, 0x20, 0x30)
BLUE = (0x20, 0x40, 0xe0)


def casts(s):
    return json.loads(s.orielctl("cast", "list", "--json", json=False))


class ClientWithWindow(portal.Client):
    """portal_client.py that first starts a colour window of its own: the
    window's process is the app's child, as an app's helper would be."""

    def __init__(self, session, colour_argv, *args):
        self.s = session
        script = '%s & exec %s "$@"' % (
            " ".join(shlex.quote(a) for a in colour_argv),
            " ".join(shlex.quote(a) for a in [portal.SYSTEM_PYTHON, str(portal.CLIENT)]))
        self.client = session.spawn(["sh", "-c", script, "sh"] + list(args),
                                    name="portal-client-with-window")


def main():
    with Session(outputs=["1024x768"]) as s:
        s.park_pointer()
        apps = s.home / ".local/share/applications"
        apps.mkdir(parents=True, exist_ok=True)
        (apps / "oriel-test-meeting.desktop").write_text(
            "[Desktop Entry]\nType=Application\nName=Meeting Room\nExec=%s --meet\n"
            % os.path.realpath(portal.SYSTEM_PYTHON))
        pipewire.start(s)
        p = portal.start(s, policy=ASK)

        # Named by its .desktop file, and the first answer is the person's.
        c1 = portal.Client(s)
        img = prompt.wait_shown(s, "the prompt for the first request")
        expect("asking the person whether 'Meeting Room' may screencast" in p.backend.log(),
               "the prompt does not name the app by its .desktop Name:\n%s"
               % p.backend.log()[-2000:])
        s.click(*prompt.centre(prompt.box(img, prompt.ALLOW)))
        expect_eq(len(c1.wait_started()), 1, "streams of the first request")
        prompt.wait_gone(s)
        first = [c["output"] for c in casts(s)]

        # Again at once (Chromium's Share after its preview): no prompt.
        asked = p.backend.log().count("asking the person")
        c2 = portal.Client(s)
        expect_eq(len(c2.wait_started()), 1, "streams of the repeated request")
        expect_eq(p.backend.log().count("asking the person"), asked,
                  "prompts for the repeated request")
        expect("asks again about a screencast" in p.backend.log(),
               "the backend did not log the answer it reused")
        expect_eq(sorted(set(c["output"] for c in casts(s))), sorted(set(first)),
                  "what the repeated request casts")
        c1.close()
        c2.close()

        # The app's own window: not preselected, listed last.
        other = s.spawn_colour(RED, size=(300, 200), title="someone else's",
                               app_id="org.oriel.other")
        other.wait_ready()
        other_win = s.wait_window(app_id="org.oriel.other")
        mine_argv = [harness.exe("ORIEL_TEST_COLOUR"), "--size", "300x100",
                     "--colour", harness.colour_hex(BLUE), "--title", "sharing bar",
                     "--app-id", "org.oriel.mine"]
        log_before = len(p.backend.log())
        c3 = ClientWithWindow(s, mine_argv, "--types", WINDOW)
        mine_win = s.wait_window(app_id="org.oriel.mine")
        s.orielctl("focus", mine_win["id"])
        img = prompt.wait_shown(s, "the prompt for a window")
        offered = [l.split("offering ", 1)[1].split(":", 2)[:2]
                   for l in p.backend.log()[log_before:].splitlines() if "offering " in l]
        ids = [":".join(o) for o in offered]
        expect(ids and ids[-1] == "window:%d" % mine_win["id"],
               "the app's own window is not listed last: %r" % ids)
        expect(ids[0] == "window:%d" % other_win["id"],
               "the first (preselected) choice is %r, not the other window" % ids[:1])
        s.click(*prompt.centre(prompt.box(img, prompt.ALLOW)))
        expect_eq(len(c3.wait_started()), 1, "streams of the window request")
        shared = [c["output"] for c in casts(s)]
        expect("window:%d" % other_win["id"] in shared and
               "window:%d" % mine_win["id"] not in shared,
               "Allow as the prompt stood shared %r (the other window is %d, the "
               "app's own %d)" % (casts(s), other_win["id"], mine_win["id"]))
        c3.close()
        p.check_alive()


if __name__ == "__main__":
    harness.run(main)
