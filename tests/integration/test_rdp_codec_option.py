#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--rdp-codec forces the graphics pipeline's codec.

For each forced codec, oriel serves RDP with a users file and a colour
window; oriel-test-rdpclient, offering everything (AVC444 included),
logs on. oriel logs the codec it chose and the client names the codecs
that arrived:
- avc420: AVC420 frames, never AVC444;
- progressive: progressive RemoteFX, never H.264;
- planar: planar tiles only (lossless: no refinement needed);
- avc444 to a client that offers AVC420 only: AVC420, and oriel says why.
Each time the client ends up showing exactly oriel's screenshot.
The [rdp] codec key does the same as the option (planar here).
"""
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect

COLOUR = (0x60, 0x20, 0xa0)
SIZE, POS = (300, 200), (200, 150)
OUTPUT = (800, 600)
PASSWORD = "codec-Pass-3317"


def run(d, users, codec, gfx, logged, wanted, unwanted, config=None):
    port = vnc.free_port()
    args = ["--rdp-users", str(users)]
    if codec:
        args += ["--rdp-codec", codec]
    with Session(outputs=["%dx%d" % OUTPUT], args=rdp.rdp_args(port, *args),
                 config=config) as s:
        s.colour_window_at(COLOUR, SIZE, POS, "colour", "org.oriel.test.o")
        rdp.wait_listening(s, port)
        pointer_box = s.park_pointer()
        secret = rdp.write_secret(s, PASSWORD)
        what = "--rdp-codec %s, --gfx %s" % (codec or "(config)", gfx)
        client = rdp.RdpClient(s, port, user="olga", password_file=secret, size=OUTPUT,
                               gfx=gfx)
        client.wait_connected()
        client.wait_line(lambda l: l == "codec " + wanted, what="%s: %s" % (what, wanted))
        rdp.wait_settled(s, client)
        vnc.expect_same_pixels(client.framebuffer(), s.screenshot(), exclude=pointer_box,
                               what=what)
        line = [l for l in s.log_text().splitlines() if "graphics pipeline" in l][0]
        expect(line.endswith(logged), "%s: oriel chose %r" % (what, line))
        codecs = client.codecs()
        harness.log("%s: codecs %s" % (what, codecs))
        for c in codecs:
            expect(c not in unwanted, "%s: %s came (%s)" % (what, c, codecs))
        client.close()
        s.check_alive()
        return s.log_text()


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-codec-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("olga", PASSWORD)])
        h264 = ("gfx-avc420", "gfx-avc444", "gfx-avc444v2")
        run(d, users, "avc420", "avc444", "AVC420", "gfx-avc420",
            ("gfx-avc444", "gfx-avc444v2", "gfx-progressive"))
        run(d, users, "progressive", "avc444", "progressive RemoteFX", "gfx-progressive", h264)
        log = run(d, users, "avc444", "avc420", "AVC420", "gfx-avc420",
                  ("gfx-avc444", "gfx-avc444v2"))
        expect("does not take AVC444 (--rdp-codec avc444): it gets AVC420" in log,
               "oriel did not say why the client got AVC420")
        config = d / "oriel.conf"
        config.write_text("[rdp]\ncodec = planar\n")
        run(d, users, None, "avc444", "planar", "gfx-planar",
            h264 + ("gfx-progressive",), config=config)


if __name__ == "__main__":
    harness.run(main)
