#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Keyboard move and resize: _NET_WM_MOVERESIZE_MOVE_KEYBOARD (10) and
_NET_WM_MOVERESIZE_SIZE_KEYBOARD (9), as openbox and mutter do them.

- After a MOVE_KEYBOARD request, Right x3 and Down x2 move the window by
  30,20 (steps of 10), in oriel and in X (xwininfo); Return keeps it there.
  The arrow keys never reach the client; a key after Return does.
- After SIZE_KEYBOARD, Right x2 and Down grow it by 20x10; Escape puts the
  size back.
"""

import harness
from harness import NotYet, Session, expect, expect_eq
from xclient import spawn, xclient_path


def geometry(s, title):
    return harness.geometry(s.window_by(title=title))


def wait_geometry(s, wid, title, expected, what):
    def check():
        got = geometry(s, title)
        info = s.xwininfo(wid)
        x_got = (info["x"], info["y"], info["width"], info["height"])
        if got != expected or x_got != expected:
            raise NotYet("oriel %r, X %r" % (got, x_got))
        return True
    s.wait_for(check, what=what)


def main():
    with Session(outputs=["1024x768"]) as s:
        client, wid = spawn(s, "kb", "--position", "200,150", "--size", "240x160")
        start = harness.geometry(s.wait_window(title="kb", where=lambda w: w["focused"]))
        x, y, w, h = start
        send = lambda *args: s.x_tool(xclient_path(), "send", *[str(a) for a in args])

        send("_NET_WM_MOVERESIZE", wid, 0, 0, 10, 0, 1)
        # A round trip through the X server: the request was seen.
        s.wait_for(lambda: s.xprop(wid, "WM_NAME"), what="a round trip")
        for key in ("Right", "Right", "Right", "Down", "Down"):
            s.key_sym(key)
        wait_geometry(s, wid, "kb", (x + 30, y + 20, w, h), "moved by the arrow keys")
        s.key_sym("Return")
        s.key_sym("Right")
        expect_eq(geometry(s, "kb"), (x + 30, y + 20, w, h), "geometry after Return")
        s.wait_for(lambda: "key-press" in client.log() or
                   (_ for _ in ()).throw(NotYet(client.log())),
                   what="the key after Return reaching the client")
        expect_eq(client.log().count("key-press"), 1,
                  "key presses the client saw (the grab's must not count)")

        moved = geometry(s, "kb")
        send("_NET_WM_MOVERESIZE", wid, 0, 0, 9, 0, 1)
        s.wait_for(lambda: s.xprop(wid, "WM_NAME"), what="a round trip")
        for key in ("Right", "Right", "Down"):
            s.key_sym(key)
        wait_geometry(s, wid, "kb", (moved[0], moved[1], w + 20, h + 10),
                      "resized by the arrow keys")
        s.key_sym("Escape")
        wait_geometry(s, wid, "kb", moved, "Escape puts the size back")
        expect_eq(client.log().count("key-press"), 1, "key presses after the resize")


if __name__ == "__main__":
    harness.run(main)
