#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An app that gives up while oriel's prompt asks for it takes the prompt
down: through the real frontend (/usr/libexec/xdg-desktop-portal), the
ScreenCast portal under the policy "ask", with pipewire and wireplumber
running, and scripted clients (portal_client.py) that call
org.freedesktop.portal.Request.Close on Start's request handle, as a
browser does when its tab is closed.

- A Start puts the prompt up; its request closed, the prompt's pixels go
  at once (long before its timeout), the app gets no Response and no
  cast is made.
- Three Starts: the first one shows, the other two queue. The second
  one's request is closed while it waits in the queue; the first one's
  request is closed while it shows: its prompt goes and the third one
  shows, never the second. The prompts are told apart by their rows:
  two outputs (types 1: one row not chosen), two outputs and a window
  (types 3: two rows not chosen), the window alone (types 2: none).
- The third one, allowed, casts the window: the prompt works as before.
"""
import json
import signal

import harness
import pipewire
import portal
import prompt
from harness import NotYet, Session, expect, expect_eq, T

# A timeout far longer than any wait here: only a withdraw takes it down.
ASK = "[screencast]\ndefault = ask\nprompt-timeout = 600\n"
GREEN = (0x30, 0xa0, 0x40)


def casts(s):
    return json.loads(s.orielctl("cast", "list", "--json", json=False))


def unchosen_rows(s, n, what):
    """Waits for a prompt with n rows not chosen (and one chosen)."""
    def check():
        img = prompt.wait_shown(s, what)
        rows = prompt.bands(img, prompt.ROW)
        if len(rows) != n:
            raise NotYet("%d rows not chosen: %r" % (len(rows), rows))
        prompt.box(img, prompt.SELECTED)
        return img
    return s.wait_for(check, T(15), what)


def asked(p, n, what):
    def check():
        count = p.backend.log().count("asking the person")
        if count < n:
            raise NotYet("%d questions asked" % count)
        return True
    p.s.wait_for(check, T(15), what)


def closing_client(s, types):
    c = portal.Client(s, "--types", str(types), "--close-start-on-usr1")
    c.wait_step("start-pending")
    return c


def close_request(c):
    c.client.kill(signal.SIGUSR1)
    st = c.wait_step("Start")
    expect_eq(st, {"step": "Start", "closed": True}, "Start after its request was closed")


def main():
    with Session(outputs=["800x600", "640x480"]) as s:
        s.colour_window_at(GREEN, (200, 150), (60, 60), "green", "org.oriel.test.green")
        s.pointer_move(799, 599)
        pipewire.start(s)
        p = portal.start(s, policy=ASK)

        # Shown, then withdrawn: the pixels go, no cast, no Response.
        c1 = closing_client(s, 1)
        unchosen_rows(s, 1, "the prompt for the first Start")
        asked(p, 1, "the first question")
        close_request(c1)
        prompt.wait_gone(s, "the prompt to go when its request is closed")
        expect_eq(casts(s), [], "casts after the request was closed")
        expect("withdrew its question" in s.log_text(),
               "oriel does not say the question was withdrawn")
        expect(c1.client.alive(), "the client that closed its request exited: %s"
               % c1.client.log())

        # One shown, two queued; the queued one and then the shown one withdrawn.
        c2 = closing_client(s, 3)
        unchosen_rows(s, 2, "the prompt for two outputs and a window")
        asked(p, 2, "the second question")
        c3 = closing_client(s, 1)
        asked(p, 3, "the third question, queued")
        c4 = portal.Client(s, "--types", "2")
        asked(p, 4, "the fourth question, queued")
        close_request(c3)

        def dropped():
            if s.log_text().count("withdrew its question") < 2:
                raise NotYet("the queued question is not withdrawn yet")
            return True
        s.wait_for(dropped, T(10), "the queued question to be withdrawn")
        unchosen_rows(s, 2, "the shown prompt, kept while a queued one goes")
        close_request(c2)
        img = unchosen_rows(s, 0, "the prompt for the window, next in the queue")

        # It works as ever: Allow casts the window.
        s.click(*prompt.centre(prompt.box(img, prompt.ALLOW)))
        s.pointer_move(799, 599)
        streams = c4.wait_started()
        expect_eq(len(streams), 1, "streams of the window cast")
        prompt.wait_gone(s, "the prompt to go once answered")
        live = casts(s)
        expect_eq(len(live), 1, "casts after Allow")
        expect(live[0]["output"].startswith("window:"), "the cast %r is not of a window"
               % live[0])
        for c in (c1, c2, c3):
            expect(c.step("Start") == {"step": "Start", "closed": True},
                   "a closed request got an answer: %r" % c.steps())
        c4.close()
        p.check_alive()
        expect_eq(p.stop_backend(), 0, "the backend's exit status on SIGTERM (log: %s)"
                  % p.backend.log()[-2000:])


if __name__ == "__main__":
    harness.run(main)
