#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Keys typed through orielctl reach the focused X application.

xterm runs `read l` and writes the line to a file.  The test clicks into
xterm to focus it, types 'hello World@|' (shifted and unshifted symbols)
and Return with orielctl, and the file must hold exactly that line.
"""
import shlex

import harness
from harness import NotYet, Session, expect_eq, tool

TEXT = "hello World@|"


def main():
    with Session(outputs=["1024x768"]) as s:
        out = s.tmp / "typed.txt"
        script = 'read l; printf "%%s\\n" "$l" > %s.tmp && mv %s.tmp %s' % (
            shlex.quote(str(out)), shlex.quote(str(out)), shlex.quote(str(out)))
        xterm = s.spawn_x([tool("xterm"), "-geometry", "80x10+40+60",
                           "-title", "oriel keyboard test", "-e", "sh", "-c", script])
        win = s.wait_window(app_id="XTerm", kind="x11",
                            where=lambda w: w["width"] > 0 and w["height"] > 0)
        wid = s.wait_x_window("XTerm")

        # Click in the middle of xterm's content.
        cx = win["x"] + win["width"] // 2
        cy = win["y"] + win["height"] // 2
        s.click(cx, cy)
        s.wait_window(id=win["id"], where=lambda w: w["focused"],
                      what="xterm to be focused after the click")
        # Synchronise with the X side: the X input focus must be on xterm
        # before typing, or keys could go to the root window.
        s.wait_for(lambda: _x_focus_is(s, wid), what="X input focus on xterm")

        s.key_type(TEXT)
        s.key_sym("Return")

        def written():
            if not out.exists():
                if not xterm.alive():
                    raise harness.TestFailure("xterm exited (%s) without writing %s"
                                              % (xterm.proc.returncode, out))
                raise NotYet("%s not written yet" % out)
            return out.read_text()
        got = s.wait_for(written, what="xterm's shell to read the typed line")
        expect_eq(got, TEXT + "\n", "line typed into xterm")


def _x_focus_is(s, wid):
    res = s.x_tool(tool("xdotool"), "getwindowfocus", check=False)
    focus = res.stdout.strip()
    if focus != str(wid):
        raise NotYet("X focus is %r (stderr %r), xterm is %d" % (
            focus, res.stderr.strip(), wid))
    return True


if __name__ == "__main__":
    harness.run(main)
