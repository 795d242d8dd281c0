#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A client that asks for what oriel does not serve still gets in, and oriel says what.

xfreerdp asks for sound (/sound: the rdpsnd static
channel), a microphone (/microphone: the audin dynamic channel) and a
shared drive (/drive: the rdpdr static channel), with /gfx:avc444, of a
session whose sound is off (--rdp-audio off). It connects normally: its
window shows the colour window at its place, through the graphics
pipeline with AVC444v2. oriel's log names each refused request exactly
once. Without /dynamic-resolution xfreerdp refuses display control, and
oriel sends nothing on that channel: xfreerdp's log has no "ChannelId N
not found!".
"""
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect, expect_eq

COLOUR = (0xc0, 0x50, 0x30)
POS, SIZE = (240, 160), (300, 200)
PASSWORD = "unserved-Pass-4471"
REFUSED = [
    "asked for sound (rdpsnd); oriel does not serve sound",
    "asked for a microphone (AUDIO_INPUT); oriel does not serve a microphone",
    "asked for drives, printers and smartcards (rdpdr); oriel does not serve",
]


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-unserved-") as d:
        users = vnc.write_users_file(Path(d), [("uma", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["800x600"], args=rdp.rdp_args(port, "--rdp-users", users, "--rdp-audio", "off")) as s:
            s.colour_window_at(COLOUR, SIZE, POS, "colour", "org.oriel.test.u")
            rdp.wait_listening(s, port)
            s.park_pointer()
            xvfb = rdp.Xvfb(s)
            try:
                client = rdp.XFreeRDP(s, xvfb, port, "uma", PASSWORD, name="unserved", extra=[
                    "/size:800x600", "/gfx:avc444", "/sound", "/microphone",
                    "/drive:home,%s" % d])
                rdp.wait_shows_colour(s, xvfb, client, COLOUR, POS, SIZE)

                def all_named():
                    text = s.log_text()
                    missing = [r for r in REFUSED if r not in text]
                    if missing:
                        raise NotYet("not in oriel's log: %s" % missing)
                    return text
                text = s.wait_for(all_named, what="oriel to name each refused request")
                for r in REFUSED:
                    expect_eq(text.count(r), 1, "times oriel's log says %r" % r)
                expect('logged on as "uma"' in text, "oriel did not log uma's logon")
                expect(client.alive(), "xfreerdp exited:\n%s" % client.log())
                expect("not found!" not in client.log(),
                       "xfreerdp got data on a channel it refused:\n%s" % client.log())
            finally:
                xvfb.close()


if __name__ == "__main__":
    harness.run(main)
