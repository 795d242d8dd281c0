#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Our libfreerdp-client2 client decodes the session: a colour window at its place.

oriel serves RDP on loopback with a users file. oriel-test-rdpclient logs
on over TLS, decodes every update with FreeRDP's software GDI and writes
the screen once every pixel was painted:
- classic bitmap updates (no graphics pipeline): the picture is lossless,
  so it equals oriel's own screenshot pixel for pixel (the pointer's corner
  aside: RDP sends the pointer as a shape, not in the pixels);
- the graphics pipeline asked for with AVC420, and without H.264: the
  colour window shows at its place (within a codec's tolerance), whichever
  codec the server chose, and the client names that codec;
- pinned to the fingerprint oriel logged, the client logs on; pinned to
  another one, TLS fails; a wrong password is refused.
"""
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect, expect_eq

COLOUR = (0x20, 0xa0, 0x60)
POS, SIZE = (240, 160), (300, 200)
OUTPUT = (1024, 768)
PASSWORD = "client-Pass-5821"


def check_window(img, tolerance, what):
    """The window's pixels are COLOUR, the pixels around it are not."""
    inner = (POS[0] + 2, POS[1] + 2, SIZE[0] - 4, SIZE[1] - 4)
    n = img.count_colour(inner, COLOUR, tolerance=tolerance)
    expect(n >= inner[2] * inner[3] * 0.99, "%s: %d of %d pixels of the window are #%s; %s" % (
        what, n, inner[2] * inner[3], harness.colour_hex(COLOUR), img.describe(inner)))
    for rect in ((POS[0] - 6, POS[1] + 20, 4, 40),                 # left
                 (POS[0] + SIZE[0] + 2, POS[1] + 20, 4, 40),       # right
                 (POS[0] + 20, POS[1] + SIZE[1] + 2, 40, 4)):      # below
        expect(img.count_colour(rect, COLOUR, tolerance=tolerance) == 0,
               "%s: the window's colour outside it at %r: %s" % (what, rect, img.describe(rect)))


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-client-") as d:
        users = vnc.write_users_file(Path(d), [("carol", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["%dx%d" % OUTPUT], args=rdp.rdp_args(port, "--rdp-users", users)) \
                as s:
            s.colour_window_at(COLOUR, SIZE, POS, "colour", "org.oriel.test.c")
            rdp.wait_listening(s, port)
            pointer_box = s.park_pointer()
            secret = rdp.write_secret(s, PASSWORD)
            account = dict(user="carol", password_file=secret, size=OUTPUT)

            rc, img, lines = rdp.rdpclient_snapshot(s, port, **account)
            expect(rc == 0, "the client failed (%d):\n%s" % (rc, "\n".join(lines[-20:])))
            expect_eq((img.width, img.height), OUTPUT, "the decoded screen's size")
            check_window(img, 0, "classic bitmaps")
            shot = s.screenshot()
            vnc.expect_same_pixels(img, shot, exclude=pointer_box,
                                   what="the RDP client's screen (classic bitmaps)")
            codecs = [l.split()[1] for l in lines if l.startswith("codec ")]
            harness.log("classic path: codecs %s" % codecs)
            expect(codecs, "no codec line: %s" % lines[:5])

            for gfx in ("avc420", "nonh264"):
                rc, img, lines = rdp.rdpclient_snapshot(s, port, gfx=gfx, **account)
                expect(rc == 0, "the client (--gfx %s) failed (%d):\n%s" % (
                    gfx, rc, "\n".join(lines[-20:])))
                codecs = [l.split()[1] for l in lines if l.startswith("codec ")]
                caps = [l for l in lines if l.startswith("gfx-caps ")]
                harness.log("--gfx %s: codecs %s, %s" % (gfx, codecs, caps or "no graphics pipeline"))
                check_window(img, 16 if any(c.startswith("gfx-") for c in codecs) else 0,
                             "--gfx %s" % gfx)
                if gfx == "nonh264":
                    expect("gfx-avc420" not in codecs and "gfx-avc444" not in codecs,
                           "H.264 was sent to a client that did not offer it: %s" % codecs)

            fp = rdp.fingerprint(s)
            rc, img, lines = rdp.rdpclient_snapshot(s, port, fingerprint=fp, **account)
            expect(rc == 0, "pinned to %s, the client failed (%d):\n%s" % (
                fp, rc, "\n".join(lines[-20:])))
            check_window(img, 0, "pinned")
            other = ("00" if not fp.startswith("00") else "11") + fp[2:]
            rc, img, lines = rdp.rdpclient_snapshot(s, port, fingerprint=other, **account)
            expect(rc == 4 and "tls-failed" in lines,
                   "pinned to another certificate, the client got (%d): %s" % (rc, lines[-5:]))

            wrong = rdp.write_secret(s, PASSWORD + "x")
            rc, img, lines = rdp.rdpclient_snapshot(s, port, user="carol", password_file=wrong,
                                                    size=OUTPUT, timeout=10)
            expect(rc != 0 and img is None, "a wrong password got a picture")
            expect(not any(l.startswith("counter") for l in lines), "frames for a wrong password")
            s.check_alive()


if __name__ == "__main__":
    harness.run(main)
