#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Typing through xfreerdp reaches an xterm in the session, under us and de.

xterm runs `read l` and writes the line to a file. xfreerdp, in an Xvfb
of its own (us keymap), is logged in; a click into xfreerdp's window
where it shows the xterm goes to the session as an RDP pointer event and
focuses the xterm; then xdotool types into xfreerdp, which sends
scancodes, and oriel turns them into keys through the session's keymap
(the us layout): lower and upper case, Shift held around a capital, and
characters that need Shift ('@', '|'), then Return. The file must hold
exactly that line. RDP is set up in the config file's [rdp] section.

Then the same under the German layout: the session's keymap is de, and
so is the Xvfb's (setxkbmap de) where xfreerdp runs, so that xdotool
types '@' as AltGr+Q, '|' as AltGr+<, and 'ä' and '€' (AltGr+E) as de
keys; the scancodes of those keys give the same characters in the
session.
"""
import tempfile
from pathlib import Path

import harness
import rdp
from harness import Session, expect_eq

PASSWORD = "typist-Pass-5521"
TYPED = {"us": "hello World@|", "de": "hello World@|\u00e4\u20ac"}


def main():
    for layout in ("us", "de"):
        typing(layout)


def typing(layout):
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-kbd-") as d:
        d = Path(d)
        # RDP from the config file's [rdp] section, this time.
        config, port = rdp.keyboard_config(d, layout, "typist", PASSWORD)
        with Session(outputs=["1024x768"], config=config) as s:
            xterm, win, out = rdp.line_xterm(s, title="rdp keyboard")
            rdp.wait_listening(s, port)
            s.park_pointer()
            keymap = None if layout == "us" else layout
            with rdp.client_in_xvfb(s, port, "typist", PASSWORD, ["/size:1024x768"],
                                    keymap=keymap) as (xvfb, client):
                rdp.click_through(s, xvfb, client, win, what="xterm to be focused "
                                  "after the click through RDP")
                s.wait_x_focus(s.wait_x_window("XTerm"))

                xvfb.xdotool("type", "--delay", "40", "hello ")
                xvfb.xdotool("keydown", "shift", "key", "w", "keyup", "shift")
                xvfb.xdotool("type", "--delay", "40", TYPED[layout][7:])
                xvfb.xdotool("key", "Return")
                expect_eq(s.wait_written(xterm, out), TYPED[layout] + "\n",
                          "line typed through xfreerdp into xterm under %s" % layout)

if __name__ == "__main__":
    harness.run(main)
