#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An output cast to PipeWire, seen by real consumers.

With pipewire and wireplumber running in the session, `orielctl cast start
--output HEADLESS-1` casts the 640x480 output. Our C consumer
(oriel-test-pwconsumer) negotiates BGRx at the output's size; its frames
carry the same pixels as `orielctl screenshot` of a colour window; a
second window appearing arrives with damage metadata that covers it; an
idle screen delivers no frames; killing the consumer ends the cast (it
disappears from `orielctl cast list`) and oriel goes on, and a new cast
works. GStreamer's pipewiresrc records a PNG from a cast too.
"""
import signal
import time

import harness
import pipewire
from harness import NotYet, Session, expect, expect_eq, geometry, tool, T

RED = (0xd0, 0x20, 0x30)
BLUE = (0x20, 0x40, 0xe0)
IDLE_WINDOW = 2.0



def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        pw = pipewire.start(s)
        out = s.output()["name"]
        a = s.spawn_colour(RED, size=(200, 150), title="red", app_id="org.oriel.test.red")
        a.wait_ready(size=(200, 150))
        rect_a = geometry(s.wait_window(app_id="org.oriel.test.red"))
        s.wait_colour(rect_a, RED)

        cast = pipewire.Cast(s, out)
        c = pipewire.Consumer(s, cast.node)
        expect_eq(c.wait_format(), (640, 480, "BGRx"), "negotiated format")
        frames = c.wait_frames(1)
        first = frames[0]
        expect_eq(first["size"], (640, 480), "frame size")
        expect(first["damage"] and pipewire.covers(first["damage"], (0, 0, 640, 480)),
               "the first frame's damage covers the output: %r" % first["damage"])
        expect_eq(first["crop"], (0, 0, 640, 480), "the crop of an output cast")

        # Pixels: the frame shows what a screenshot shows.
        shot = s.screenshot(output=out)

        def frame_matches():
            f = c.frames()[-1]
            img = c.image(f["seq"])
            bad = img.first_mismatch(rect_a, RED, tolerance=2)
            if bad is not None:
                raise NotYet("frame %d: %r" % (f["seq"], bad))
            for (x, y) in ((5, 5), (rect_a[0] + 10, rect_a[1] + 10), (630, 470)):
                if img.pixel(x, y) != shot.pixel(x, y):
                    raise NotYet("frame %d pixel (%d,%d) %r, screenshot %r" % (
                        f["seq"], x, y, img.pixel(x, y), shot.pixel(x, y)))
            return f
        s.wait_for(frame_matches, T(10), "the frame to match the screenshot")

        # A change arrives with damage covering it.
        n = len(c.frames())
        b = s.spawn_colour(BLUE, size=(120, 90), title="blue", app_id="org.oriel.test.blue")
        b.wait_ready(size=(120, 90))
        rect_b = geometry(s.wait_window(app_id="org.oriel.test.blue"))

        def blue_arrived():
            fs = c.frames()[n:]
            if not fs:
                raise NotYet("no new frame")
            img = c.image(fs[-1]["seq"])
            if img.first_mismatch(rect_b, BLUE, tolerance=2) is not None:
                raise NotYet("blue not in frame %d yet" % fs[-1]["seq"])
            return fs
        fs = s.wait_for(blue_arrived, T(10), "the blue window in the cast")
        damage = [r for f in fs for r in (f["damage"] or [])]
        expect(pipewire.covers(damage, rect_b),
               "damage %r does not cover the new window %r" % (damage, rect_b))
        expect(not pipewire.covers(damage, (0, 0, 640, 480)),
               "the damage after the change is the whole output: %r" % damage)
        seqs = [f["seq"] for f in c.frames()]
        expect(seqs == sorted(set(seqs)), "sequence numbers increase: %r" % seqs)

        # Idle: no frames.
        time.sleep(0.5)
        n = len(c.frames())
        time.sleep(IDLE_WINDOW)
        extra = c.frames()[n:]
        expect(not extra, "frames on an idle screen: %r" % extra[:5])

        # The consumer vanishes: the cast ends, oriel goes on.
        c.client.kill(signal.SIGKILL)
        s.wait_for(lambda: (not cast.alive()) or (_ for _ in ()).throw(
            NotYet("orielctl cast start still running")), T(10),
            "the cast to end when its consumer is killed")

        def listed():
            import json
            ids = [x["id"] for x in json.loads(s.orielctl("cast", "list", "--json",
                                                          json=False))]
            if cast.id in ids:
                raise NotYet("cast %d still listed: %r" % (cast.id, ids))
            return True
        s.wait_for(listed, T(10), "the cast to leave the list")
        s.check_alive()

        # orielctl exiting ends its casts too (sd_bus_track).
        cast3 = pipewire.Cast(s, out)
        cast3.client.kill(signal.SIGKILL)

        def gone():
            import json
            ids = [x["id"] for x in json.loads(s.orielctl("cast", "list", "--json",
                                                          json=False))]
            if cast3.id in ids:
                raise NotYet("cast %d still listed" % cast3.id)
            return True
        s.wait_for(gone, T(10), "the dead orielctl's cast to end")

        # A new cast works.
        cast4 = pipewire.Cast(s, out)
        c4 = pipewire.Consumer(s, cast4.node)
        c4.wait_format()
        c4.wait_frames(1)
        # GStreamer's pipewiresrc, on a cast of its own.
        cast2 = pipewire.Cast(s, out)
        png = s.tmp / "gst.png"
        s.run_tool([tool("gst-launch-1.0"), "-q", "pipewiresrc", "path=%d" % cast2.node,
                    "num-buffers=1", "!", "videoconvert", "!", "pngenc", "!",
                    "filesink", "location=%s" % png], timeout=30)
        img = harness.read_png(png)
        expect_eq((img.width, img.height), (640, 480), "gstreamer frame size")
        expect(img.first_mismatch(rect_b, BLUE, tolerance=2) is None,
               "gstreamer's frame shows the blue window: %s" % img.describe(rect_b))
        expect(img.first_mismatch((rect_a[0], rect_a[1] + rect_a[3] - 5, 20, 5), RED,
                                  tolerance=2) is None,
               "gstreamer's frame shows the red window")

        c4.client.kill(signal.SIGTERM)
        pw.stop()
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
