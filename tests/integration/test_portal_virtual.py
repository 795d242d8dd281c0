#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A virtual screen through the ScreenCast portal and the real frontend.

An app selecting types = virtual (4), allowed by the policy: Start answers
one stream of source_type 4 at the default 1280x720, positioned where
oriel placed the new VIRTUAL output, which `orielctl outputs` lists
while the cast lives. Our PipeWire consumer gets 1280x720 frames; a
window moved onto the virtual output shows in them where it is on that
output. Closing the portal session ends the cast and the output goes. A
second session's consumer fixates another size, which the output takes.
"""
import json

import harness
import pipewire
import portal
from harness import NotYet, Session, expect, expect_eq, T

RED = (0xd0, 0x20, 0x30)
REAL = (640, 480)
DEFAULT = (1280, 720)
FIXATED = (800, 600)
ALLOW = "[screencast]\ndefault = deny\nallow-unidentified = true\n"
VIRTUAL = "4"


def casts(s):
    return json.loads(s.orielctl("cast", "list", "--json", json=False))


def virtual_outputs(s):
    return [o for o in s.outputs() if o["name"].startswith("VIRTUAL")]


def wait_gone(s, what):
    def gone():
        if casts(s) or virtual_outputs(s):
            raise NotYet("casts %r, outputs %r" % (casts(s), virtual_outputs(s)))
        return True
    s.wait_for(gone, T(10), what)


def main():
    with Session(outputs=["%dx%d" % REAL]) as s:
        s.park_pointer()
        pipewire.start(s)
        expect_eq(virtual_outputs(s), [], "virtual outputs before any cast")
        p = portal.start(s, policy=ALLOW)

        c = portal.Client(s, "--types", VIRTUAL)
        streams = c.wait_started()
        expect_eq(len(streams), 1, "streams")
        node, props = streams[0]
        expect_eq(props.get("source_type"), 4, "source_type (virtual)")
        expect_eq(tuple(props.get("size", ())), DEFAULT, "the stream's size")
        virt = virtual_outputs(s)
        expect_eq(len(virt), 1, "VIRTUAL outputs while the cast lives: %r" % s.outputs())
        out = virt[0]
        expect_eq((out["width"], out["height"]), DEFAULT, "the virtual output's size")
        expect_eq(tuple(props.get("position", ())), (out["x"], out["y"]),
                  "the stream's position: the virtual output's")
        expect_eq([(x["node_id"], x["output"]) for x in casts(s)], [(node, out["name"])],
                  "oriel's cast")

        consumer = pipewire.Consumer(s, node)
        expect_eq(consumer.wait_format(), DEFAULT + ("BGRx",), "negotiated format")
        pos = (out["x"] + 60, out["y"] + 40)
        s.colour_window_at(RED, (160, 120), pos, "red", "org.oriel.test.red")
        local = (60, 40, 160, 120)

        def shows():
            expect(consumer.client.alive(), "the consumer exited: %s" % consumer.client.log())
            fs = [f for f in consumer.frames() if f["size"] == DEFAULT]
            if not fs:
                raise NotYet("no frame yet")
            img = consumer.image(fs[-1]["seq"])
            if img.first_mismatch(local, RED, tolerance=2) is not None:
                raise NotYet("frame %d: %s" % (fs[-1]["seq"], img.describe(local)))
            return True
        s.wait_for(shows, T(15), "the window on the virtual screen in the frames")

        c.close()
        wait_gone(s, "the cast and its output to go with the session")
        consumer.client.kill()

        # The consumer may fixate another size: the output takes it.
        c2 = portal.Client(s, "--types", VIRTUAL)
        node2 = c2.wait_started()[0][0]
        consumer2 = pipewire.Consumer(s, node2, size=FIXATED)
        expect_eq(consumer2.wait_format(), FIXATED + ("BGRx",), "the fixated format")

        def resized():
            v = virtual_outputs(s)
            if not v or (v[0]["width"], v[0]["height"]) != FIXATED:
                raise NotYet("virtual outputs %r" % v)
            return v[0]
        s.wait_for(resized, T(10), "the virtual output to take the fixated size")
        c2.close()
        wait_gone(s, "the second virtual screen to go")
        consumer2.client.kill()

        p.check_alive()
        expect_eq(p.stop_backend(), 0, "the backend's exit status on SIGTERM")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
