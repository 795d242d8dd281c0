#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A window cast through the ScreenCast portal and the real frontend.

Two X windows (oriel-test-xclient, Xwayland): red, focused, and blue,
kept above (_NET_WM_STATE_ABOVE) so that it covers part of red on the
screen. An app selecting types = window (2):

- under a policy that allows it (window = focused, the default), Start
  answers one stream of source_type 2 at red's size, without a
  position; our PipeWire consumer gets red-only frames of that size,
  the part blue covers on the screen included;
- with window = none nothing picks a window without a person: Start
  fails and no cast is made;
- with persist = true the grant is remembered as window:ID; the token
  starts the same window without asking while the policy denies, and
  once the window is closed the token no longer opens anything: the
  policy decides (deny: cancelled);
- under ask, oriel's prompt (kind "window") offers the windows by title,
  the focused one first; choosing the other row and Allow casts blue.
"""
import json

import harness
import pipewire
import portal
import prompt
from harness import NotYet, Session, expect, expect_eq, geometry, T
from xclient import spawn

RED = (0xd0, 0x20, 0x30)
BLUE = (0x20, 0x40, 0xe0)
SIZE = (200, 150)
ALLOW = "[screencast]\ndefault = deny\nallow-unidentified = true\npersist = true\n"
NO_WINDOW = ALLOW + "window = none\n"
DENY = "[screencast]\ndefault = deny\n"
ASK = "[screencast]\ndefault = ask\n"
WINDOW = "2"


def casts(s):
    return json.loads(s.orielctl("cast", "list", "--json", json=False))


def wait_no_casts(s, what):
    def none():
        if casts(s):
            raise NotYet("casts %r" % casts(s))
        return True
    s.wait_for(none, T(10), what)


def all_of(s, c, size, rgb):
    """A frame of size whose every pixel is rgb."""
    def got():
        expect(c.client.alive(), "the consumer exited: %s" % c.client.log())
        fs = [f for f in c.frames() if f["size"] == size]
        if not fs:
            raise NotYet("no %dx%d frame yet (formats %r)" % (size + (c.formats(),)))
        img = c.image(fs[-1]["seq"])
        bad = img.first_mismatch((0, 0) + size, rgb, tolerance=2)
        if bad is not None:
            raise NotYet("frame %d: %r %s" % (fs[-1]["seq"], bad,
                                              img.describe((0, 0) + size)))
        return img
    return s.wait_for(got, T(15), "%dx%d frames all of %r" % (size + (rgb,)))


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        pipewire.start(s)
        red_client, _ = spawn(s, "red", "--colour", "d02030", "--size", "200x150",
                              "--position", "40,40")
        red = s.wait_window(title="red", where=lambda w: w["width"] == SIZE[0])
        spawn(s, "blue", "--colour", "2040e0", "--size", "200x150",
              "--position", "140,100", "--state", "ABOVE")
        blue = s.wait_window(title="blue", where=lambda w: w["width"] == SIZE[0])
        s.orielctl("focus", red["id"])
        red = s.wait_window(id=red["id"], where=lambda w: w["focused"],
                            what="red to be focused")
        rr, br = geometry(red), geometry(blue)
        # On the screen blue covers red where they overlap.
        overlap = (br[0], br[1], rr[0] + rr[2] - br[0], rr[1] + rr[3] - br[1])
        expect(overlap[2] > 0 and overlap[3] > 0, "no overlap: %r %r" % (rr, br))
        s.wait_colour(overlap, BLUE, what="blue above red on the screen")

        p = portal.start(s, policy=ALLOW)
        c = portal.Client(s, "--types", WINDOW, "--persist-mode", "2")
        streams = c.wait_started()
        expect_eq(len(streams), 1, "streams")
        node, props = streams[0]
        expect_eq(props.get("source_type"), 2, "source_type (window)")
        expect_eq(tuple(props.get("size", ())), SIZE, "the stream's size: red's")
        expect("position" not in props, "a window stream has no position: %r" % props)
        expect_eq(props.get("id"), "window:%d" % red["id"], "the stream's id")
        token = c.step("Start")["results"].get("restore_token")
        expect(isinstance(token, str) and token, "no restore_token: %r" % c.step("Start"))
        grants = json.loads(s.orielctl("grants", "--json", json=False))
        expect_eq([g["sources"] for g in grants], [["window:%d" % red["id"]]],
                  "the grant's sources")
        expect_eq([x["node_id"] for x in casts(s)], [node], "oriel's casts")

        consumer = pipewire.Consumer(s, node)
        expect_eq(consumer.wait_format(), SIZE + ("BGRx",), "negotiated format")
        all_of(s, consumer, SIZE, RED)
        c.close()
        wait_no_casts(s, "the window cast to stop with the session")
        consumer.client.kill()

        # window = none: nobody picks a window, so nothing is cast.
        p.set_policy(NO_WINDOW)
        c2 = portal.Client(s, "--types", WINDOW)
        st = c2.wait_step("Start")
        expect_eq((st.get("step"), st.get("response")), ("Start", 2),
                  "Start with window = none and nobody to choose")
        expect(not casts(s), "a cast without a window to show")

        # The token: the same window without asking, while the policy denies.
        p.set_policy(DENY)
        c3 = portal.Client(s, "--types", WINDOW, "--persist-mode", "2",
                           "--restore-token", token)
        streams3 = c3.wait_started()
        expect_eq([x[1].get("id") for x in streams3], ["window:%d" % red["id"]],
                  "the restored stream")
        c3.close()
        wait_no_casts(s, "the restored cast to stop")

        # Once the window is gone, the token opens nothing: the policy decides.
        red_client.kill()
        s.wait_no_window(title="red")
        c4 = portal.Client(s, "--types", WINDOW, "--persist-mode", "2",
                           "--restore-token", token)
        st = c4.wait_step("Start")
        expect_eq((st.get("step"), st.get("response")), ("Start", 1),
                  "Start with a token for a closed window under a deny policy")
        expect(not casts(s), "a token for a closed window made a cast")

        # ask: the prompt lists the windows by title; the person picks one.
        spawn(s, "green", "--colour", "20c050", "--size", "120x90",
              "--position", "400,300")
        green = s.wait_window(title="green", where=lambda w: w["focused"])
        p.set_policy(ASK)
        c5 = portal.Client(s, "--types", WINDOW)
        img = prompt.wait_shown(s, "the prompt for a window cast")
        log = p.backend.log()
        for w in (green, blue):
            expect("offering window:%d: Window: %s (%dx%d)" % (
                w["id"], w["title"], w["width"], w["height"]) in log,
                "the prompt does not offer %s:\n%s" % (w["title"], log[-3000:]))
        expect("whether '" in log and "' may window" in log,
               "the prompt is not for a window:\n%s" % log[-3000:])
        rows = prompt.bands(img, prompt.ROW)
        expect_eq(len(rows), 1, "rows not chosen (two windows, the focused chosen)")
        chosen = prompt.box(img, prompt.SELECTED)
        s.click(*prompt.centre(rows[0]))

        def other_chosen():
            shot = prompt.wait_shown(s)
            if prompt.box(shot, prompt.SELECTED)[1] == chosen[1]:
                raise NotYet("the first row is still chosen")
            return shot
        img = s.wait_for(other_chosen, T(10), "the other row to be chosen")
        s.click(*prompt.centre(prompt.box(img, prompt.ALLOW)))
        streams5 = c5.wait_started()
        node5, props5 = streams5[0]
        expect_eq((props5.get("id"), props5.get("source_type"), tuple(props5.get("size"))),
                  ("window:%d" % blue["id"], 2, SIZE), "the chosen window's stream")
        prompt.wait_gone(s)
        blue_consumer = pipewire.Consumer(s, node5)
        all_of(s, blue_consumer, SIZE, BLUE)
        c5.close()
        wait_no_casts(s, "the chosen window's cast to stop")

        p.check_alive()
        expect_eq(p.stop_backend(), 0, "the backend's exit status on SIGTERM")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
