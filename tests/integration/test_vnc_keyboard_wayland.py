#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Typing from a viewer reaches a Wayland client, under `us` and `de`.

weston-terminal (a Wayland-native terminal) runs `sh`.  The viewer clicks
into it (which focuses it) and types a shell command that writes a line
with characters needing Shift, AltGr or no key at all in the layout
(@ | ä €) to a file, then Return.  The file must hold exactly that line:
the keysyms went through oriel's keymap to a Wayland client the same way
they go to X apps (test_vnc_keyboard_us/de).
"""
import tempfile
from pathlib import Path

import harness
import vnc
from harness import NotYet, Session, TestFailure, tool

LINE = "hello World@|ä€"


def run(layout):
    port = vnc.free_port()
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-wl-kbd-") as d:
        config = Path(d) / "oriel.ini"
        config.write_text("[keyboard]\nlayout = %s\n" % layout)
        with Session(outputs=["1024x768"], config=config, args=vnc.vnc_args(port)) as s:
            out = s.tmp / "typed.txt"
            term = s.spawn([tool("weston-terminal"), "--shell=/bin/sh"],
                           env={"SHELL": "/bin/sh", "ENV": "", "PS1": "$ "})
            win = s.wait_window(app_id="org.freedesktop.weston.wayland-terminal", where=lambda w: w["width"] > 0 and
                                w["height"] > 0 and w["focused"],
                                what="weston-terminal's window, focused")
            vnc.wait_listening(s, vnc.tcp(port))
            v = vnc.Viewer(s, vnc.tcp(port))
            v.wait_connected()
            v.click(win["x"] + win["width"] // 2, win["y"] + win["height"] // 2)
            s.wait_window(id=win["id"], where=lambda w: w["focused"],
                          what="weston-terminal focused after the viewer's click")

            v.type("printf '%s\\n' '")
            v.type("hello ")
            v.keysym("Shift_L", "down")
            v.type("W")
            v.keysym("Shift_L", "up")
            v.type("orld@|ä€' > %s" % out)
            v.keysym("Return")

            def written():
                if not out.exists():
                    if not term.alive():
                        raise TestFailure("weston-terminal exited (%s) without "
                                          "writing %s" % (term.proc.returncode, out))
                    raise NotYet("%s not written yet" % out)
                return out.read_text(encoding="utf-8", errors="replace")
            got = s.wait_for(written, what="the shell in weston-terminal to run "
                             "the typed command")
            harness.expect_eq(got, LINE + "\n", "line typed from the viewer into "
                              "weston-terminal with layout %s" % layout)


def main():
    for layout in ("us", "de"):
        run(layout)


if __name__ == "__main__":
    harness.run(main)
