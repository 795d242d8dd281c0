#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""_NET_WM_SYNC_REQUEST: an interactive resize waits for the app to draw.

- _NET_SUPPORTED lists _NET_WM_SYNC_REQUEST.
- An X client that lists the protocol, has a sync counter and no window
  background (it fills the window itself, taking 100 ms to draw a size) is
  resized with Alt + right-drag in small steps. It gets sync requests with
  increasing serials, each before the ConfigureNotify of its size; no new
  size reaches it before it set the counter to the serial of the size
  before; the last size it drew and answered is the one the drag ended at,
  oriel and X agree on it, and the screenshot shows the app's colour over
  all of it (nothing undrawn).
- A client that lists the protocol but never sets its counter gets one
  sync request; after oriel's timeout it is resized all the same, to the
  size the drag ended at, without further requests.
"""
import harness
from harness import NotYet, Session, expect, expect_eq, tool
from xclient import check_sync_protocol, spawn, sync_events

OUTPUT = (1280, 720)
COLOUR = (0x2a, 0xb0, 0x5c)
SIZE = (240, 160)
STEPS = 10
STEP = (12, 8)


def _alt_right_drag(s, start, steps, step):
    """Alt down, right button at start, `steps` moves by `step`, release."""
    s.key_sym("Alt_L", "press")
    try:
        s.pointer_move(*start)
        s.orielctl("pointer", "button", "right", "press", json=False)
        for i in range(1, steps + 1):
            s.pointer_move(start[0] + i * step[0], start[1] + i * step[1])
        s.orielctl("pointer", "button", "right", "release", json=False)
    finally:
        s.key_sym("Alt_L", "release")


def _resize_configures(events, size):
    """The real ConfigureNotify events that changed the size, from size."""
    changes = []
    for e in events:
        if e[0] == "configure" and e[1] != size:
            size = e[1]
            changes.append(e)
    return changes


def main():
    with Session(outputs=["%dx%d" % OUTPUT]) as s:
        def supported():
            out = s.x_tool(tool("xprop"), "-root", "_NET_SUPPORTED").stdout
            # oriel's list (after wlroots' own) names its own atoms too.
            if "_NET_MOVERESIZE_WINDOW" not in out:
                raise NotYet(out)
            return out
        out = s.wait_for(supported, what="oriel's _NET_SUPPORTED")
        expect("_NET_WM_SYNC_REQUEST" in out.split("=", 1)[1].replace(" ", "").split(","),
               "_NET_SUPPORTED lacks _NET_WM_SYNC_REQUEST: %s" % out)

        # -- a client that answers
        client, wid = spawn(s, "sync", "--sync-request", "answer",
                            "--position", "100,100", "--size", "%dx%d" % SIZE,
                            "--colour", "%02x%02x%02x" % COLOUR)
        win = s.wait_window(title="sync", where=lambda w: w["focused"] and
                            (w["width"], w["height"]) == SIZE)
        x, y, w, h = harness.geometry(win)
        exclude = s.park_pointer()
        s.wait_colour((x, y, w, h), COLOUR, exclude=exclude,
                      what="the app's colour over its window")

        _alt_right_drag(s, (x + w - 12, y + h - 10), STEPS, STEP)
        want = (w + STEPS * STEP[0], h + STEPS * STEP[1])

        def answered_final():
            events = sync_events(client)
            sets = [e for e in events if e[0] == "set"]
            if not sets or sets[-1][2] != want:
                raise NotYet("client log: %r" % (events,))
            return events
        events = s.wait_for(answered_final, what="the client to draw and answer %r" %
                            (want,))
        check_sync_protocol(events, (w, h))
        changes = _resize_configures(events, (w, h))
        expect(len(changes) < STEPS,
               "every one of the %d drag steps reached the client: %r" % (STEPS, changes))

        grown = (x, y) + want
        s.wait_window(title="sync", where=lambda v: harness.geometry(v) == grown,
                      what="the window at %r after the drag" % (grown,))
        info = s.xwininfo(int(wid, 16))
        expect_eq((info["x"], info["y"], info["width"], info["height"]), grown,
                  "X's geometry of the window")
        exclude = s.park_pointer()
        s.wait_colour(grown, COLOUR, exclude=exclude,
                      what="the app's colour over the whole new size %r" % (grown,))

        # -- a client that never answers
        mute, mute_wid = spawn(s, "mute", "--sync-request", "never",
                               "--position", "600,100", "--size", "%dx%d" % SIZE,
                               "--colour", "%02x%02x%02x" % COLOUR)
        win = s.wait_window(title="mute", where=lambda w: w["focused"] and
                            (w["width"], w["height"]) == SIZE)
        x, y, w, h = harness.geometry(win)
        _alt_right_drag(s, (x + w - 12, y + h - 10), STEPS, STEP)
        grown = (x, y, w + STEPS * STEP[0], h + STEPS * STEP[1])
        s.wait_window(title="mute", where=lambda v: harness.geometry(v) == grown,
                      what="the silent client resized to %r after the timeout" % (grown,))
        s.wait_for(lambda: ("did not answer _NET_WM_SYNC_REQUEST" in s.log_text() or
                            (_ for _ in ()).throw(NotYet("no timeout logged"))),
                   what="oriel to log the sync request's timeout")
        requests = [e for e in sync_events(mute) if e[0] == "request"]
        expect_eq(len(requests), 1, "sync requests the silent client got")
        exclude = s.park_pointer()
        s.wait_colour(grown, COLOUR, exclude=exclude,
                      what="the silent client's colour over its new size %r" % (grown,))


if __name__ == "__main__":
    harness.run(main)
