#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Unicode keyboard events (`xfreerdp /kbd-unicode`) type characters the
session's keymap has no key for.

xfreerdp runs in an Xvfb with the German layout and sends what it types
as Unicode characters (Return and the modifiers stay scancodes). The
session's keymap is us: '@' and '|' are on other keys there, and 'ä' and
'€' on none, so oriel types them through the same keysym path and spare
keycodes as VNC's. AltGr, which xfreerdp sends as a scancode for '@',
'|' and '€', is Alt in the session and must not reach the xterm with
them. The xterm's shell reads the line; the file must hold exactly it.
"""
import harness
import rdp
import vnc
from harness import Session, expect_eq

TYPED = "hello W\u00f6rld@|\u00e4\u20ac{}"


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=rdp.rdp_args(port)) as s:
        xterm, win, out = rdp.line_xterm(s)
        rdp.wait_listening(s, port)
        s.park_pointer()
        with rdp.client_in_xvfb(s, port, "typist", "unused", ["/size:1024x768",
                                "/kbd-unicode"], keymap="de") as (xvfb, client):
            rdp.click_through(s, xvfb, client, win)
            s.wait_x_focus(s.wait_x_window("XTerm"))
            xvfb.xdotool("type", "--delay", "40", TYPED)
            xvfb.xdotool("key", "Return")
            expect_eq(rdp.wait_line(s, xterm, out), TYPED + "\n",
                      "line typed as Unicode through xfreerdp (de) into xterm (us)")


if __name__ == "__main__":
    harness.run(main)
