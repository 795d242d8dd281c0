#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The clipboard goes both ways between a viewer and X and Wayland apps.

libvncclient speaks Latin-1 cut text, so the texts carry non-ASCII
Latin-1 letters, which the session sees as UTF-8:
- X to viewer: with an xterm focused (wlroots only lets a focused X
  client own the clipboard), `xclip -selection clipboard` takes it; the
  viewer receives ServerCutText with the text;
- viewer to X: the viewer sends ClientCutText; `xclip -o` reads it;
- the same with `wl-copy` and `wl-paste` (wl-clipboard) on the Wayland side;
- all along, a second (raw) viewer with the ExtendedClipboard extension
  receives the session's texts in UTF-8.
"""
import shlex

import harness
import vnc
from harness import NotYet, Session, expect_eq, tool


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=vnc.vnc_args(port)) as s:
        vnc.wait_listening(s, vnc.tcp(port))
        v = vnc.Viewer(s, vnc.tcp(port))
        v.wait_connected()
        # Beside it, a viewer with ExtendedClipboard gets the same texts
        # in UTF-8 (libvncserver's sender once left the Latin-1 viewer's
        # send lock taken, so the second text froze oriel).
        ext = vnc.ExtClipboardClient(vnc.tcp(port))

        def viewer_gets(text, mark, what):
            want = text.encode("latin-1")

            def got():
                texts = v.cut_texts(mark)
                if want not in texts:
                    raise NotYet("cut texts so far: %r" % texts)
                return True
            s.wait_for(got, what=what)

        def session_reads(argv, text, what, x=False):
            def read():
                res = s.run_tool(argv, check=False, x=x)
                if res.stdout != text:
                    raise NotYet("%s printed %r (exit %d, %s)" % (
                        argv[0], res.stdout, res.returncode, res.stderr.strip()))
                return True
            s.wait_for(read, what=what)

        # wlroots lets an X client take the clipboard only while an X
        # surface has the focus (as when a person copies in an X app), so
        # focus an xterm first.
        s.spawn_x([tool("xterm"), "-geometry", "40x8+100+100", "-title", "clip"])
        xw = s.wait_window(app_id="XTerm", kind="x11",
                           where=lambda w: w["width"] > 0 and w["height"] > 0)
        v.click(xw["x"] + xw["width"] // 2, xw["y"] + xw["height"] // 2)
        s.wait_window(id=xw["id"], where=lambda w: w["focused"],
                      what="xterm focused by the viewer's click")
        wid = s.wait_x_window("XTerm")

        def x_focus():
            res = s.x_tool(tool("xdotool"), "getwindowfocus", check=False)
            if res.stdout.strip() != str(wid):
                raise NotYet("X focus is %r, xterm is %d" % (res.stdout.strip(), wid))
            return True
        s.wait_for(x_focus, what="X input focus on xterm")

        # X -> viewer
        text = "from X: Grüße"
        mark = v.mark()
        # xclip stays in the background as the selection owner.
        s.spawn_x(["sh", "-c", "printf %%s %s | exec %s -selection clipboard -i" % (
            shlex.quote(text), tool("xclip"))], name="xclip")
        viewer_gets(text, mark, "the X clipboard at the viewer")
        ext.wait_text(text)

        # viewer -> X
        text = "to X: façade"
        v.cut_text(text)
        session_reads([tool("xclip"), "-selection", "clipboard", "-o"], text,
                      "the viewer's text in the X clipboard", x=True)

        # Wayland -> viewer
        text = "from Wayland: smörgåsbord"
        mark = v.mark()
        s.spawn_wayland([tool("wl-copy"), "--foreground", "--", text], name="wl-copy")
        viewer_gets(text, mark, "the Wayland clipboard at the viewer")
        ext.wait_text(text)

        # viewer -> Wayland
        text = "to Wayland: déjà vu"
        v.cut_text(text)
        session_reads([tool("wl-paste"), "--no-newline"], text,
                      "the viewer's text in the Wayland clipboard")
        expect_eq(v.alive(), True, "viewer still connected")
        ext.close()


if __name__ == "__main__":
    harness.run(main)
