#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""NLA: xfreerdp logs on with CredSSP against the --rdp-sam file.

oriel serves RDP with a SAM file that winpr-hash wrote for nina, and no
other accounts. xfreerdp with /sec:nla logs on as nina (oriel says it was
NLA) and shows the colour window at its place. A wrong password is
refused during NLA, before the session sends anything, and counts as a
failed logon that names the user who tried. A client that skips NLA (/sec:tls) gets nowhere: the SAM
file serves NLA only, and there are no accounts for a TLS logon.
"""
import subprocess
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect

COLOUR = (0x20, 0x60, 0xc0)
PASSWORD = "nina-Pass-5531"
WRONG = "nina-Wrong-0042"


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-nla-") as d:
        sam = Path(d) / "sam"
        r = subprocess.run([harness.tool("winpr-hash"), "-u", "nina", "-p", PASSWORD,
                            "-f", "sam"], capture_output=True, text=True, check=True)
        sam.write_text(r.stdout)
        port = vnc.free_port()
        with Session(outputs=["800x600"], args=rdp.rdp_args(port, "--rdp-sam", sam)) as s:
            s.colour_window_at(COLOUR, (240, 160), (300, 200), "blue", "org.oriel.test.b")
            rdp.wait_listening(s, port)
            s.park_pointer()
            xvfb = rdp.Xvfb(s)
            try:
                client = rdp.XFreeRDP(s, xvfb, port, "nina", PASSWORD, name="nla",
                                      extra=["/sec:nla", "/size:800x600"])
                rdp.wait_shows_colour(s, xvfb, client, COLOUR, (300, 200), (240, 160))
                expect('logged on as "nina" (NLA)' in s.log_text(),
                       "oriel did not say nina logged on through NLA")
                client.close()

                wrong = rdp.XFreeRDP(s, xvfb, port, "nina", WRONG, name="nla-wrong",
                                     extra=["/sec:nla"])
                expect(wrong.wait_exit() != 0, "xfreerdp with a wrong password exited with 0")
                s.wait_for(lambda: 'failed logon as "nina" from' in s.log_text() or
                           (_ for _ in ()).throw(NotYet("no failed logon logged")),
                           what="the failed NLA logon in oriel's log")

                tls = rdp.XFreeRDP(s, xvfb, port, "nina", PASSWORD, name="tls-only")
                expect(tls.wait_exit() != 0, "a client without NLA logged on")
                expect(s.log_text().count("logged on as") == 1,
                       "more than nina's NLA logon got in")
                for name in ("nla", "nla-wrong"):
                    text = (s.tmp / ("%s.log" % name)).read_text(errors="replace")
                    expect(PASSWORD not in text and WRONG not in text,
                           "a password is in %s's log" % name)
                expect(PASSWORD not in s.log_text(), "the password is in oriel's log")
            finally:
                xvfb.close()


if __name__ == "__main__":
    harness.run(main)
