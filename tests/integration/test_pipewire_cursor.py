#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cursor modes of casts.

metadata (4): every frame of an output cast carries SPA_META_Cursor; the
pointer moved with `orielctl pointer move` arrives as the position (the
hotspot, in output coordinates) in a frame of its own, without damage
(headless outputs keep the cursor on a plane: the frame's pixels do not
change), and the bitmap comes with the first frame that shows the shape.
A region cast reports the position relative to the region.
hidden (1): accepted; the frames carry no cursor and no cursor meta.
embedded (2): the cursor is drawn into the frames where the pointer is,
and where it was the frames show the screen again; no cursor meta. Also
for a region cast, whose pixels are drawn straight into its buffers.
"""
import harness
import pipewire
from harness import NotYet, Session, expect, expect_eq, T

RED = (0xd0, 0x20, 0x30)


def wait_cursor(s, c, pos, since=0):
    def got():
        for f in c.frames()[since:]:
            cur = f["cursor"]
            if cur and cur["id"] != 0 and cur["position"] == pos:
                return f
        raise NotYet("cursor metadata so far: %r" % [f["cursor"] for f in c.frames()][-5:])
    return s.wait_for(got, T(10), "cursor metadata at %r" % (pos,))


def differs(img, shot, box):
    """Pixels of box where the frame differs from the screenshot."""
    return [(x, y) for (x, y), px in img.pixels(box) if px != shot.pixel(x, y)]


def wait_embedded(s, c, shot, drawn, clean):
    """A frame with the cursor drawn in box drawn and box clean as the
    screenshot shows it."""
    def got():
        fs = c.frames()
        if not fs:
            raise NotYet("no frame")
        f = fs[-1]
        img = c.image(f["seq"])
        if len(differs(img, shot, drawn)) < 10:
            raise NotYet("frame %d: no cursor drawn in %r" % (f["seq"], drawn))
        left = differs(img, shot, clean)
        if left:
            raise NotYet("frame %d: %d cursor pixels left in %r" % (f["seq"], len(left), clean))
        expect(f["cursor"] is None, "embedded mode sends no cursor meta")
        return f
    return s.wait_for(got, T(10), "the cursor drawn in %r and gone from %r" % (drawn, clean))


def main():
    with Session(outputs=["640x480"]) as s:
        s.park_pointer()
        pipewire.start(s)
        out = s.output()["name"]
        w = s.spawn_colour(RED, size=(200, 150), title="red", app_id="org.oriel.test.red")
        w.wait_ready(size=(200, 150))

        cast = pipewire.Cast(s, out, cursor="metadata")
        c = pipewire.Consumer(s, cast.node)
        c.wait_format()
        c.wait_frames(1)
        s.orielctl("pointer", "move", 100, 120)
        f = wait_cursor(s, c, (100, 120))
        bitmaps = [x["cursor"]["bitmap"] for x in c.frames()
                   if x["cursor"] and x["cursor"]["id"] != 0]
        expect(any(b[0] > 0 and b[1] > 0 for b in bitmaps),
               "a cursor bitmap was sent: %r" % bitmaps)
        hot = f["cursor"]["hotspot"]
        expect(0 <= hot[0] < 256 and 0 <= hot[1] < 256, "hotspot %r" % (hot,))

        n = len(c.frames())
        s.orielctl("pointer", "move", 300, 200)
        f = wait_cursor(s, c, (300, 200), since=n)
        expect_eq(f["damage"], [], "a cursor-only frame has no damage")
        expect_eq(f["cursor"]["bitmap"], (0, 0), "the unchanged shape is not resent")

        # A region cast: relative to the region.
        rcast = pipewire.Cast(s, region=(250, 150, 200, 100), cursor="metadata")
        rc = pipewire.Consumer(s, rcast.node)
        rc.wait_format()
        wait_cursor(s, rc, (50, 50))

        # hidden: no cursor meta at all.
        hcast = pipewire.Cast(s, out, cursor="hidden")
        hc = pipewire.Consumer(s, hcast.node)
        hc.wait_format()
        frames = hc.wait_frames(1)
        expect(all(x["cursor"] is None for x in frames),
               "hidden mode sends no cursor meta: %r" % frames[:3])

        # embedded: drawn into the frames, and the old place repaired.
        ecast = pipewire.Cast(s, out, cursor="embedded")
        ec = pipewire.Consumer(s, ecast.node)
        ec.wait_format()
        shot = s.screenshot(output=out)  # the screen without the cursor
        s.orielctl("pointer", "move", 400, 300)
        wait_embedded(s, ec, shot, drawn=(400, 300, 8, 8), clean=(100, 100, 16, 16))
        s.orielctl("pointer", "move", 100, 100)
        wait_embedded(s, ec, shot, drawn=(100, 100, 8, 8), clean=(400, 300, 16, 16))

        # embedded in a region cast, whose pixels are drawn into its buffers.
        region = (250, 150, 200, 100)
        ercast = pipewire.Cast(s, region=region, cursor="embedded")
        erc = pipewire.Consumer(s, ercast.node)
        erc.wait_format()
        rshot = s.screenshot(region=region)
        s.orielctl("pointer", "move", 300, 200)
        wait_embedded(s, erc, rshot, drawn=(50, 50, 8, 8), clean=(0, 0, 16, 16))
        s.orielctl("pointer", "move", 400, 220)
        wait_embedded(s, erc, rshot, drawn=(150, 70, 8, 8), clean=(50, 50, 16, 16))

        res = s.orielctl_raw("cast", "start", "--output", out, "--cursor", "sideways")
        expect(res.returncode != 0, "a bad cursor mode is refused")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
