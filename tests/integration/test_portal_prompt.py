#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The ScreenCast portal with the policy "ask": oriel's own prompt decides,
answered by clicks at its pixels, through the real frontend
(/usr/libexec/xdg-desktop-portal) and a scripted client of the public API
(portal_client.py), with pipewire and wireplumber running:

- Start puts the prompt up, naming the caller by its executable (an
  unsandboxed client has no app_id) and listing the outputs; clicking the
  second output and Allow answers response 0 with a stream of that output,
  and oriel lists the cast;
- while the cast is live the sharing indicator shows on the first output;
  clicking it ends the cast: oriel's Casts list empties, the portal
  session is closed (Session.Closed reaches the client), and the badge
  goes;
- clicking Deny answers response 1 (cancelled), and no cast is made;
- nobody answering within prompt-timeout answers response 1 too;
- an app asking for persist_mode 2 gets no "remember" checkbox while the
  policy does not persist; with persist = true it does, and when the
  person ticks it and allows, Start returns a restore token and oriel's
  grants file lists the grant; a second session bringing the token back
  starts the same output without any prompt;
- the backend exits cleanly on SIGTERM (LSan-clean under the sanitizers).

Frames are not consumed here: the answers and oriel's casts are what the
prompt decides.
"""
import json
import os

import harness
import pipewire
import portal
import prompt
from harness import NotYet, Session, expect, expect_eq, T

# Every question here wants its own prompt, however quickly it follows.
ASK = "[screencast]\ndefault = ask\nsame-answer-within = 0\n"


def grants(s):
    return json.loads(s.orielctl("grants", "--json", json=False))


def casts(s):
    return json.loads(s.orielctl("cast", "list", "--json", json=False))


def wait_casts(s, n, what):
    def check():
        now = casts(s)
        if len(now) != n:
            raise NotYet("casts %r" % now)
        return now or True
    return s.wait_for(check, T(10), what)


def badge(s):
    return prompt.bands(s.screenshot(output=s.output()["name"]), prompt.BADGE)


def wait_badge(s, shown, what):
    def check():
        found = badge(s)
        if bool(found) != shown:
            raise NotYet("badges: %r" % found)
        return found or True
    return s.wait_for(check, T(10), what)


def main():
    with Session(outputs=["800x600", "640x480"]) as s:
        # The pointer waits at the first output's bottom-right corner.
        park = (799, 599)
        s.pointer_move(*park)
        pipewire.start(s)
        p = portal.start(s, policy=ASK)
        first, second = s.outputs()[0], s.outputs()[1]
        expect(not badge(s), "a sharing badge with nothing shared")

        # Allow, choosing the second output.
        c = portal.Client(s)
        img = prompt.wait_shown(s, "the prompt for the portal's Start")
        rows = prompt.bands(img, prompt.ROW)
        expect_eq(len(rows), 1, "rows not chosen (two outputs, the first chosen)")
        caller = os.path.realpath(portal.SYSTEM_PYTHON)
        expect("asking the person whether '%s' may screencast" % caller in p.backend.log(),
               "the prompt does not name the caller %s:\n%s" % (caller, p.backend.log()))
        chosen = prompt.box(img, prompt.SELECTED)
        s.click(*prompt.centre(rows[0]))

        def second_chosen():
            shot = prompt.wait_shown(s)
            if prompt.box(shot, prompt.SELECTED)[1] <= chosen[1]:
                raise NotYet("the first row is still chosen")
            return shot
        img = s.wait_for(second_chosen, T(10), "the second row to be chosen")
        s.click(*prompt.centre(prompt.box(img, prompt.ALLOW)))
        streams = c.wait_started()
        expect_eq(len(streams), 1, "streams")
        node, props = streams[0]
        expect_eq(props.get("id"), second["name"], "the stream's output")
        expect_eq(tuple(props.get("size", ())), (second["width"], second["height"]),
                  "the stream's size")
        live = wait_casts(s, 1, "the allowed cast")
        expect_eq((live[0]["node_id"], live[0]["output"]), (node, second["name"]),
                  "oriel's cast")
        prompt.wait_gone(s)

        # The sharing indicator: shown while the cast lives, a click ends it.
        found = wait_badge(s, True, "the sharing indicator")
        expect_eq(len(found), 1, "badges")
        bx, by, bw, bh = found[0]
        expect(bx + bw <= first["x"] + first["width"] and by < first["y"] + 64,
               "the badge %r is not at the top right of %s" % (found[0], first["name"]))
        s.click(*prompt.centre(found[0]))
        s.pointer_move(*park)
        wait_casts(s, 0, "the cast to end on a click on the indicator")
        c.wait_step("session-closed")
        wait_badge(s, False, "the indicator to go")

        # Deny: cancelled, and no cast.
        c2 = portal.Client(s)
        img = prompt.wait_shown(s, "the prompt for a second Start")
        s.click(*prompt.centre(prompt.box(img, prompt.DENY)))
        st = c2.wait_step("Start")
        expect_eq((st.get("step"), st.get("response")), ("Start", 1), "Start after Deny")
        expect_eq(casts(s), [], "casts after Deny")
        prompt.wait_gone(s)

        # Nobody answers: cancelled when the time is up, and logged so.
        denied_before = p.backend.log().count("the person denied")
        p.set_policy(ASK + "prompt-timeout = 1\n")
        c3 = portal.Client(s)
        prompt.wait_shown(s, "the prompt that nobody answers")
        st = c3.wait_step("Start")
        expect_eq((st.get("step"), st.get("response")), ("Start", 1),
                  "Start when nobody answers")
        expect_eq(casts(s), [], "casts when nobody answers")
        prompt.wait_gone(s)
        expect("nobody answered the prompt" in p.backend.log(),
               "the backend did not log the timeout as a timeout")
        expect_eq(p.backend.log().count("the person denied"), denied_before,
                  "'the person denied' lines after a timeout")

        # Remember is offered only when the app and the policy persist.
        p.set_policy(ASK)
        c4 = portal.Client(s, "--persist-mode", "2")
        img = prompt.wait_shown(s, "the prompt for an app that asks to persist")
        expect(not prompt.bands(img, prompt.CHECKBOX, min_width=2),
               "a remember checkbox while the policy does not persist")
        s.key_sym("Escape")
        st = c4.wait_step("Start")
        expect_eq((st.get("step"), st.get("response")), ("Start", 1), "Start after Escape")
        prompt.wait_gone(s)

        # Ticked and allowed: a restore token, and a grant in the file.
        p.set_policy(ASK + "persist = true\n")
        c5 = portal.Client(s, "--persist-mode", "2")
        img = prompt.wait_shown(s, "the prompt offering to remember")
        s.click(*prompt.centre(prompt.box(img, prompt.CHECKBOX, min_width=2)))

        def ticked():
            shot = prompt.wait_shown(s)
            if len(prompt.bands(shot, prompt.SELECTED)) != 2:
                raise NotYet("chosen areas %r" % prompt.bands(shot, prompt.SELECTED))
            return shot
        img = s.wait_for(ticked, T(10), "the remember box ticked")
        s.click(*prompt.centre(prompt.box(img, prompt.ALLOW)))
        s.pointer_move(*park)
        streams = c5.wait_started()
        expect_eq([x[1].get("id") for x in streams], [first["name"]], "the remembered stream")
        token = c5.step("Start")["results"].get("restore_token")
        expect(isinstance(token, str) and token, "no restore_token after remember: %r"
               % c5.step("Start"))
        listed = grants(s)
        expect_eq([(g["app_id"], g["kind"], g["sources"]) for g in listed],
                  [("", "screencast", ["monitor:%s" % first["name"]])], "the grant")
        prompt.wait_gone(s)
        c5.close()
        wait_casts(s, 0, "the remembered cast to stop with its session")

        # The token brings the grant back: no prompt at all.
        asked = p.backend.log().count("asking the person")
        c6 = portal.Client(s, "--persist-mode", "2", "--restore-token", token)
        streams = c6.wait_started()
        expect_eq([x[1].get("id") for x in streams], [first["name"]], "the restored stream")
        expect_eq(p.backend.log().count("asking the person"), asked,
                  "the restored session asked the person")
        expect(not prompt.bands(s.screenshot(output=first["name"]), prompt.ALLOW),
               "a prompt for the restored session")
        expect_eq(len(wait_casts(s, 1, "the restored cast")), 1, "casts")
        c6.close()
        wait_casts(s, 0, "the restored cast to stop with its session")
        p.check_alive()
        expect_eq(p.stop_backend(), 0, "the backend's exit status on SIGTERM (log: %s)"
                  % p.backend.log()[-2000:])


if __name__ == "__main__":
    harness.run(main)
