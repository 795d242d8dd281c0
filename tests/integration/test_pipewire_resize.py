#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An output cast follows the output's size.

`orielctl output-size NAME 800x600` while a 640x480 output is cast: the
consumer is offered the new size and renegotiates (its format line says
800x600), then receives 800x600 frames whose pixels show the window and
the output's new bottom-right corner. The cast is not ended by the
renegotiation; shrinking back to 640x480 renegotiates again.
"""
import harness
import pipewire
from harness import NotYet, Session, expect, expect_eq, geometry, T

GREEN = (0x20, 0xb0, 0x40)


def formats(c):
    out = []
    for line in c.lines():
        p = line.split()
        if p and p[0] == "format":
            out.append((int(p[1]), int(p[2]), p[3]))
    return out


def wait_size(s, c, size, rect):
    def got():
        expect(c.client.alive(), "the consumer exited: %s" % c.client.log())
        if formats(c)[-1][:2] != size:
            raise NotYet("formats so far %r" % formats(c))
        fs = [f for f in c.frames() if f["size"] == size]
        if not fs:
            raise NotYet("no %dx%d frame yet" % size)
        img = c.image(fs[-1]["seq"])
        expect_eq((img.width, img.height), size, "the frame's picture size")
        if img.first_mismatch(rect, GREEN, tolerance=2) is not None:
            raise NotYet("frame %d: %s" % (fs[-1]["seq"], img.describe(rect)))
        return img
    return s.wait_for(got, T(15), "%dx%d frames" % size)


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        pipewire.start(s)
        out = s.output()["name"]
        w = s.spawn_colour(GREEN, size=(160, 120), title="g", app_id="org.oriel.test.g")
        w.wait_ready(size=(160, 120))
        cast = pipewire.Cast(s, out)
        c = pipewire.Consumer(s, cast.node)
        expect_eq(c.wait_format(), (640, 480, "BGRx"), "first format")
        c.wait_frames(1)

        s.orielctl("output-size", out, "800x600")
        rect = geometry(s.wait_window(app_id="org.oriel.test.g"))
        img = wait_size(s, c, (800, 600), rect)
        shot = s.screenshot(output=out)
        expect_eq((shot.width, shot.height), (800, 600), "screenshot size")
        for (x, y) in ((790, 590), (5, 5)):
            expect_eq(img.pixel(x, y), shot.pixel(x, y), "pixel (%d,%d)" % (x, y))
        expect(cast.alive(), "the cast goes on after renegotiating")

        s.orielctl("output-size", out, "640x480")
        rect = geometry(s.wait_window(app_id="org.oriel.test.g"))
        wait_size(s, c, (640, 480), rect)
        expect(cast.alive(), "the cast goes on after shrinking")
        states = [l for l in c.lines() if l.startswith("state ")]
        expect(not any("error" in l or "unconnected" in l for l in states),
               "the consumer's states: %r" % states)
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
