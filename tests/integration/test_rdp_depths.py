#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""xfreerdp below 32 bits per pixel shows the session.

Clients that take neither RemoteFX nor 32-bit bitmaps get bitmap updates
at their own depth: interleaved RLE at 16 and 15 bits, uncompressed at
24; a client asking for 8 bits is told to take 16. xfreerdp, in an Xvfb,
logs in at /bpp:16, /bpp:15, /bpp:8, with /network:modem (which asks for
16 bits) and at /bpp:24, and its window shows a red window of the session
at its place (its edges on no 4- or 64-pixel boundary, so tiles are
widened as the codecs need), every pixel of it within 12 of the red on
each channel (what 5 bits a channel carry; a swap of red and blue would
be far off), and not beside it. Then the window is moved and only the
damage follows: the red shows at the new place and no longer at the old
one. oriel logs each client's depth, without RemoteFX, and the 8-bit
client's upgrade.
"""
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect

RED = (0xd8, 0x20, 0x30)
PASSWORD = "depth-Pass-5150"
SIZE = (301, 203)
POS, MOVED = (243, 161), (517, 333)


# (client arguments, the depth oriel serves)
CASES = [
    (["/bpp:16"], 16),
    (["/bpp:15"], 15),
    (["/bpp:8"], 16),
    (["/network:modem"], 16),
    (["/bpp:24"], 24),
]


def check_shows(s, xvfb, client, pos, gone=None):
    colour = RED

    def shown():
        x, y, _, _, _ = client.window()
        img = xvfb.screen()
        rect = (x + pos[0], y + pos[1], SIZE[0], SIZE[1])
        n = img.count_colour(rect, colour, tolerance=12)
        if n < SIZE[0] * SIZE[1]:
            raise NotYet("%d of %d pixels are #%s; they are %s" % (
                n, SIZE[0] * SIZE[1], harness.colour_hex(colour), img.describe(rect)))
        # Just outside each edge: not its colour.
        for edge in ((x + pos[0] - 4, y + pos[1], 3, SIZE[1]),
                     (x + pos[0] + SIZE[0] + 1, y + pos[1], 3, SIZE[1]),
                     (x + pos[0], y + pos[1] - 4, SIZE[0], 3),
                     (x + pos[0], y + pos[1] + SIZE[1] + 1, SIZE[0], 3)):
            if img.count_colour(edge, colour, tolerance=12) != 0:
                raise NotYet("beside the window: %s" % img.describe(edge))
        if gone is not None:
            old = (x + gone[0], y + gone[1], 20, 20)
            if img.count_colour(old, colour, tolerance=12) != 0:
                raise NotYet("the old place still shows it: %s" % img.describe(old))
        return True
    s.wait_for(shown, what="xfreerdp to show #%s at %r" % (harness.colour_hex(colour), pos))


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-depths-") as d:
        users = vnc.write_users_file(Path(d), [("depth", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["1024x768"], args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            _, win = s.colour_window_at(RED, SIZE, POS, "red", "org.oriel.test.red")
            rdp.wait_listening(s, port)
            s.park_pointer()
            xvfb = rdp.Xvfb(s)
            try:
                for extra, depth in CASES:
                    name = "client-" + "".join(a.strip("/").replace(":", "") for a in extra)
                    logged = "at %d bpp, RemoteFX no" % depth
                    before = s.log_text().count(logged)
                    s.orielctl("move", win["id"], *POS)
                    s.wait_window(id=win["id"], where=lambda w: (w["x"], w["y"]) == POS)
                    client = rdp.XFreeRDP(s, xvfb, port, "depth", PASSWORD,
                                          ["/size:1024x768"] + extra, name=name)
                    try:
                        check_shows(s, xvfb, client, POS)
                        expect(s.log_text().count(logged) == before + 1,
                               "%s did not connect %r" % (" ".join(extra), logged))
                        s.orielctl("move", win["id"], *MOVED)
                        check_shows(s, xvfb, client, MOVED, gone=POS)
                        harness.log("%s: shows the window at %d bpp" % (" ".join(extra), depth))
                    finally:
                        client.close()
                expect("asked for 8 bits per pixel: it gets 16" in s.log_text(),
                       "oriel did not log the 8-bit client's upgrade")
                expect("takes neither" not in s.log_text(), "a client was not served")
            finally:
                xvfb.close()


if __name__ == "__main__":
    harness.run(main)
