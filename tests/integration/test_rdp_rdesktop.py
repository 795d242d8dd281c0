#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""rdesktop 1.9, the one RDP client that is not FreeRDP, shows the session
and types into it, at 16, 32 and 24 bits per pixel: interleaved RLE,
planar with its alpha plane, and uncompressed bitmaps, whose flags
rdesktop reads strictly (no NO_BITMAP_COMPRESSION_HDR without
compression).

rdesktop writes its MCS Erect Domain Request's two integers as bare
16-bit values, which FreeRDP 2's server refuses ("1 bytes too long"), so
it could not connect at all; oriel repairs that one PDU before FreeRDP
reads it (remote/mcs_erect_domain.h).

rdesktop runs in an Xvfb of its own (us keymap), with TLS, a user and
password from the users file, and its certificate prompt answered yes.
At each depth:
- oriel logs the client at that depth;
- rdesktop's window shows the session's red window at its place, every
  pixel within 12 of its red on each channel (what 5 bits a channel keep
  at 16), and not beside it;
- a click into rdesktop's window focuses the session's xterm, and text
  typed with xdotool into rdesktop (lower and upper case, '@' and '|',
  which take Shift) arrives there exactly.
At 16 bits, the clipboard too: text that xclip puts on the Xvfb's
clipboard is what wl-paste prints in the session.
"""
import subprocess
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, TestFailure, expect, expect_eq

RED = (0xd8, 0x20, 0x30)
PASSWORD = "rdesktop-Pass-4417"
SIZE = (301, 203)
POS = (243, 161)
OUTPUT = (1024, 768)
TYPED = "rdesktop Types@|"


class RDesktop(rdp.XvfbClient):
    """rdesktop in an Xvfb, logged on to oriel; its certificate prompt
    answered yes. Its window is found as xfreerdp's is."""

    def __init__(self, session, xvfb, port, depth, home, user="desk", password=PASSWORD):
        self.session = session
        self.xvfb = xvfb
        self.log_path = session.tmp / ("rdesktop-%d.log" % depth)
        argv = [harness.tool("rdesktop"), "-u", user, "-p", password, "-a", str(depth),
                "-g", "%dx%d" % OUTPUT, "-k", "en-us", "-T", "rdesktop %d" % depth,
                "%s:%d" % (rdp.LOCALHOST, port)]
        harness.log("starting", " ".join(a if a != password else "***" for a in argv))
        env = dict(xvfb.env(), HOME=str(home))
        self.proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE,
                                     stdout=open(self.log_path, "wb"),
                                     stderr=subprocess.STDOUT, start_new_session=True)
        # The question whether to trust oriel's certificate.
        self.proc.stdin.write(b"yes\n")
        self.proc.stdin.flush()


def check_shows(s, xvfb, client):
    def shown():
        if not client.alive():
            raise TestFailure("rdesktop exited (%s):\n%s" % (client.proc.returncode,
                                                             client.log()[-3000:]))
        x, y, _, _, _ = client.window()
        img = xvfb.screen()
        rect = (x + POS[0], y + POS[1], SIZE[0], SIZE[1])
        n = img.count_colour(rect, RED, tolerance=12)
        if n < SIZE[0] * SIZE[1]:
            raise NotYet("%d of %d pixels are #%s; they are %s" % (
                n, SIZE[0] * SIZE[1], harness.colour_hex(RED), img.describe(rect)))
        for edge in ((x + POS[0] - 4, y + POS[1], 3, SIZE[1]),
                     (x + POS[0] + SIZE[0] + 1, y + POS[1], 3, SIZE[1]),
                     (x + POS[0], y + POS[1] - 4, SIZE[0], 3),
                     (x + POS[0], y + POS[1] + SIZE[1] + 1, SIZE[0], 3)):
            if img.count_colour(edge, RED, tolerance=12) != 0:
                raise NotYet("beside the window: %s" % img.describe(edge))
        return True
    s.wait_for(shown, what="rdesktop to show the red window")


def check_clipboard(s, xvfb):
    text = "from rdesktop: fa\u00e7ade no. 2"
    xclip = subprocess.Popen([harness.tool("xclip"), "-selection", "clipboard", "-i", "-quiet"],
                             env=xvfb.env(), stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        xclip.stdin.write(text.encode())
        xclip.stdin.close()

        def pasted():
            r = s.run_tool([harness.tool("wl-paste"), "--no-newline"], check=False)
            if r.stdout != text:
                raise NotYet("wl-paste printed %r" % r.stdout)
            return True
        s.wait_for(pasted, what="rdesktop's clipboard text in the session")
    finally:
        xclip.kill()
        xclip.wait()


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-rdesktop-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("desk", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["%dx%d" % OUTPUT], args=rdp.rdp_args(port, "--rdp-users", users)) \
                as s:
            s.colour_window_at(RED, SIZE, POS, "red", "org.oriel.test.red")
            rdp.wait_listening(s, port)
            s.park_pointer()
            for depth in (16, 32, 24):
                xterm, win, out = rdp.line_xterm(s, geometry="40x4+640+520",
                                                 title="rdesktop %d" % depth)
                home = d / ("home-%d" % depth)
                home.mkdir()
                logged = "at %d bpp" % depth
                before = s.log_text().count(logged)
                xvfb = rdp.Xvfb(s)
                client = RDesktop(s, xvfb, port, depth, home)
                try:
                    check_shows(s, xvfb, client)
                    expect(s.log_text().count(logged) == before + 1,
                           "oriel did not log rdesktop %r" % logged)
                    rdp.click_through(s, xvfb, client, win, what="the xterm to be focused "
                                      "after a click through rdesktop")
                    s.wait_x_focus(s.wait_x_window("XTerm"))
                    xvfb.xdotool("type", "--delay", "40", TYPED)
                    xvfb.xdotool("key", "Return")
                    expect_eq(s.wait_written(xterm, out), TYPED + "\n",
                              "the line typed through rdesktop -a %d" % depth)
                    if depth == 16:
                        check_clipboard(s, xvfb)
                    harness.log("rdesktop -a %d: shows the session and types" % depth)
                finally:
                    client.close()
                    xvfb.close()
                    xterm.kill()
            expect("bytes too long" not in s.log_text(), "FreeRDP refused a PDU")


if __name__ == "__main__":
    harness.run(main)
