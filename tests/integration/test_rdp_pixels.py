#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""xfreerdp shows the session: a colour window at its place.

oriel serves RDP on loopback with a users file (`--rdp-users`). xfreerdp,
in an Xvfb of its own, logs in as alice over TLS with /cert:ignore and
asks for 1024x768, which becomes the output's size; its window then shows
the desktop: the colour window at its place, the rest not that colour.
When the output is resized while a client is connected (orielctl
output-size), the client is reactivated with the new size: its window
takes that size and still shows the colour window at its place.
xfreerdp takes RemoteFX by default (surface bits); with /network:lan /bpp:32 (no RemoteFX) it gets
planar bitmap updates, and shows the same.
A wrong password is refused (xfreerdp exits, oriel logs the failed logon
with the user's name, and the password is in no log).
"""
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect, expect_eq, NotYet

COLOUR = (0x20, 0xa0, 0x60)
ALICE_PW = "alice-Pass-7391"
WRONG_PW = "alice-Wrong-1234"


def check_window_shows(s, xvfb, client, pos, size):
    """Wait until client's window shows COLOUR at pos, size (desktop coordinates)."""
    def shown():
        x, y, w, h, _ = client.window()
        img = xvfb.screen()
        rect = (x + pos[0], y + pos[1], size[0], size[1])
        n = img.count_colour(rect, COLOUR, tolerance=12)
        if n < size[0] * size[1] * 0.98:
            raise NotYet("%d of %d pixels of the window are #%s; they are %s" % (
                n, size[0] * size[1], harness.colour_hex(COLOUR), img.describe(rect)))
        # Just outside the window, left and above: not its colour.
        outside = (x + pos[0] - 20, y + pos[1] - 20, 10, 10)
        m = img.count_colour(outside, COLOUR, tolerance=12)
        if m != 0:
            raise NotYet("outside the window has its colour: %s" % img.describe(outside))
        return img
    return s.wait_for(shown, what="xfreerdp to show the colour window")


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-pixels-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("alice", ALICE_PW)])
        port = vnc.free_port()
        with Session(outputs=["800x600"], args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            s.colour_window_at(COLOUR, (300, 200), (240, 160), "green", "org.oriel.test.g")
            rdp.wait_listening(s, port)
            s.park_pointer()
            xvfb = rdp.Xvfb(s)
            try:
                for codec, extra, logged in (("RemoteFX", [], "RemoteFX yes"),
                                             ("planar", ["/network:lan", "/bpp:32"], "RemoteFX no")):
                    before = s.log_text().count(logged)
                    client = rdp.XFreeRDP(s, xvfb, port, "alice", ALICE_PW,
                                          ["/size:1024x768"] + extra, name="client-" + codec)
                    try:
                        check_window_shows(s, xvfb, client, (240, 160), (300, 200))
                        expect_eq(s.output()["width"], 1024, "output width after the logon")
                        expect("logged on as \"alice\"" in s.log_text(),
                               "oriel did not log alice's logon")
                        expect(s.log_text().count(logged) == before + 1,
                               "the %s client did not connect with %r" % (codec, logged))
                        if codec == "RemoteFX":
                            s.orielctl("output-size", s.output()["name"], "900x700")

                            def resized():
                                size = client.window()[2:4]
                                if size != (900, 700):
                                    raise NotYet("xfreerdp's window is %dx%d" % size)
                                return True
                            s.wait_for(resized, what="xfreerdp to follow the resize")
                            check_window_shows(s, xvfb, client, (240, 160), (300, 200))
                    finally:
                        client.close()

                wrong = rdp.XFreeRDP(s, xvfb, port, "alice", WRONG_PW, name="wrong")
                status = wrong.wait_exit()
                expect(status != 0, "xfreerdp with a wrong password exited with 0")
                s.wait_for(lambda: "failed logon as \"alice\"" in s.log_text() or
                           (_ for _ in ()).throw(NotYet("not logged")),
                           what="oriel to log the failed logon")
                for text in (s.log_text(), client.log(), wrong.log()):
                    expect(ALICE_PW not in text and WRONG_PW not in text,
                           "a password is in a log")
            finally:
                xvfb.close()


if __name__ == "__main__":
    harness.run(main)
