#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The three cursor modes through the ScreenCast portal and the real
frontend: an app's cursor_mode reaches oriel's cast, and the frames show
it.

- metadata (4): the frames carry SPA_META_Cursor; the pointer moved in
  oriel arrives as the position, with a cursor bitmap;
- hidden (1): no frame carries cursor meta, and where the pointer is the
  frames show the screen as a screenshot does;
- embedded (2): no cursor meta; the cursor's pixels are drawn where the
  pointer is (frames differ from the screenshot there), and where it was
  the frames show the screen again.
"""
import json

import harness
import pipewire
import portal
from harness import NotYet, Session, expect, expect_eq, T

RED = (0xd0, 0x20, 0x30)
ALLOW = "[screencast]\ndefault = deny\nallow-unidentified = true\n"
HIDDEN, EMBEDDED, METADATA = 1, 2, 4


def start(s, mode):
    """A portal session casting the output with cursor mode; its client and consumer."""
    c = portal.Client(s, "--cursor-mode", str(mode))
    node = c.wait_started()[0][0]
    listed = json.loads(s.orielctl("cast", "list", "--json", json=False))
    expect_eq([(x["node_id"], x["cursor_mode"]) for x in listed], [(node, mode)],
              "oriel's cast and its cursor mode")
    consumer = pipewire.Consumer(s, node)
    consumer.wait_format()
    consumer.wait_frames(1)
    return c, consumer


def stop(s, c, consumer):
    c.close()

    def none():
        if json.loads(s.orielctl("cast", "list", "--json", json=False)):
            raise NotYet("casts left")
        return True
    s.wait_for(none, T(10), "the cast to stop")
    consumer.client.kill()


def differs(img, shot, box):
    return [(x, y) for (x, y), px in img.pixels(box) if px != shot.pixel(x, y)]


def wait_frame(s, c, check, what):
    def got():
        fs = c.frames()
        img = c.image(fs[-1]["seq"])
        check(fs[-1], img)
        return fs[-1]
    return s.wait_for(got, T(10), what)


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        pipewire.start(s)
        out = s.output()["name"]
        w = s.spawn_colour(RED, size=(200, 150), title="red", app_id="org.oriel.test.red")
        w.wait_ready(size=(200, 150))
        p = portal.start(s, policy=ALLOW)

        # metadata: the pointer's position and shape travel with the frames.
        c, consumer = start(s, METADATA)
        s.pointer_move(100, 120)

        def cursor_at(pos):
            def got():
                for f in consumer.frames():
                    cur = f["cursor"]
                    if cur and cur["id"] != 0 and cur["position"] == pos:
                        return f
                raise NotYet("cursor meta so far: %r" % [
                    f["cursor"] for f in consumer.frames()][-3:])
            return got
        s.wait_for(cursor_at((100, 120)), T(10), "cursor meta at the pointer")
        bitmaps = [f["cursor"]["bitmap"] for f in consumer.frames()
                   if f["cursor"] and f["cursor"]["id"] != 0]
        expect(any(b[0] > 0 and b[1] > 0 for b in bitmaps), "no cursor bitmap: %r" % bitmaps)
        stop(s, c, consumer)

        # The screen without any cursor, for hidden and embedded.
        shot = s.screenshot(output=out)

        # hidden: no meta, and nothing drawn where the pointer is. (Motion
        # alone makes no frame here: the pointer is where the first one is made.)
        s.pointer_move(300, 200)
        c, consumer = start(s, HIDDEN)

        def hidden(f, img):
            bad = differs(img, shot, (300, 200, 16, 16))
            expect(not bad, "hidden mode drew pixels at %r" % bad[:5])
        wait_frame(s, consumer, hidden, "a frame without the cursor")
        expect(all(f["cursor"] is None for f in consumer.frames()),
               "hidden mode sent cursor meta: %r" % consumer.frames()[:3])
        stop(s, c, consumer)

        # embedded: the cursor drawn at the pointer, the old place repaired.
        c, consumer = start(s, EMBEDDED)

        def drawn_at(drawn, clean):
            def check(f, img):
                if len(differs(img, shot, drawn)) < 10:
                    raise NotYet("frame %d: no cursor drawn in %r" % (f["seq"], drawn))
                left = differs(img, shot, clean)
                if left:
                    raise NotYet("frame %d: cursor pixels left in %r" % (f["seq"], clean))
                expect(f["cursor"] is None, "embedded mode sent cursor meta")
            return check
        s.pointer_move(400, 300)
        wait_frame(s, consumer, drawn_at((400, 300, 8, 8), (100, 100, 16, 16)),
                   "the cursor drawn at 400,300")
        s.pointer_move(100, 100)
        wait_frame(s, consumer, drawn_at((100, 100, 8, 8), (400, 300, 16, 16)),
                   "the cursor drawn at 100,100 and gone from 400,300")
        stop(s, c, consumer)

        p.check_alive()
        expect_eq(p.stop_backend(), 0, "the backend's exit status on SIGTERM")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
