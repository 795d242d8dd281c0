#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The clipboard goes both ways between an RDP client and X and Wayland apps.

xfreerdp, with its clipboard on, runs in an Xvfb of its own; xclip there
is the client side's app. In the session xclip (X, through Xwayland) and
wl-copy/wl-paste (Wayland) are the apps. The texts have non-ASCII
letters, a character outside the BMP and line ends: RDP carries them as
UTF-16 with CRLF, the session as UTF-8 with LF.
- session (X) -> client: xclip in the session takes the clipboard;
  `xclip -o` in the Xvfb prints it;
- client -> session: xclip in the Xvfb takes the Xvfb's clipboard;
  xclip -o (X) and wl-paste (Wayland) in the session print it;
- session (Wayland) -> client: wl-copy; `xclip -o` in the Xvfb.
Text the session had before xfreerdp connected, with nothing of its own
to give (though it announces text), stays the session's.
"""
import shlex
import subprocess

import harness
import rdp
import vnc
from harness import NotYet, Session, expect_eq, tool

PASSWORD = "clip-Pass-9051"


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=rdp.rdp_args(port)) as s:
        s.spawn_x([tool("xterm"), "-bg", "white", "-geometry", "60x10+80+80",
                   "-title", "clip"])
        win = s.wait_window(app_id="XTerm", kind="x11",
                            where=lambda w: w["width"] > 0 and w["height"] > 0)
        rdp.wait_listening(s, port)
        s.park_pointer()
        # The session's own text, copied before any client is there.
        before = "kept: the session's own text"
        s.spawn_wayland([tool("wl-copy"), "--foreground", "--", before], name="wl-copy-0")

        def session_has(text):
            res = s.run_tool([tool("wl-paste"), "--no-newline"], check=False)
            if res.stdout != text:
                raise NotYet("wl-paste printed %r" % res.stdout)
            return True
        s.wait_for(lambda: session_has(before), what="the session's own text")
        with rdp.client_in_xvfb(s, port, "clipper", PASSWORD,
                                ["/size:1024x768", "+clipboard"]) as (xvfb, client):
            # wlroots lets an X client take the clipboard only while an X
            # surface has the focus, so the xterm is focused first.
            rdp.click_through(s, xvfb, client, win)
            s.wait_x_focus(s.wait_x_window("XTerm"))
            # xfreerdp announces text it does not have (its Xvfb's clipboard
            # is empty): the session keeps its own.
            s.wait_for(lambda: session_has(before),
                       what="the session's own text after an empty client connected")

            def client_reads(text, what):
                def read():
                    r = rdp.xvfb_tool(xvfb, [tool("xclip"), "-selection", "clipboard",
                                             "-o"], check=False)
                    got = r.stdout.decode(errors="replace")
                    if got != text:
                        raise NotYet("xclip -o in the Xvfb printed %r (exit %d)" % (
                            got, r.returncode))
                    return True
                s.wait_for(read, what=what)

            def session_reads(argv, text, what, x=False):
                def read():
                    res = s.run_tool(argv, check=False, x=x)
                    if res.stdout != text:
                        raise NotYet("%s printed %r (exit %d, %s)" % (
                            argv[0], res.stdout, res.returncode, res.stderr.strip()))
                    return True
                s.wait_for(read, what=what)

            # session (X) -> client
            text = "from X: Grüße €\nzweite Zeile \U0001F600"
            s.spawn_x(["sh", "-c", "printf %%s %s | exec %s -selection clipboard -i" % (
                shlex.quote(text), tool("xclip"))], name="xclip")
            client_reads(text, "the session's X clipboard in xfreerdp's Xvfb")

            # client -> session (X, then Wayland)
            text = "to the session: façade\nno. 2 \u2713"
            xclip = subprocess.Popen(
                [tool("xclip"), "-selection", "clipboard", "-i", "-quiet"],
                env=xvfb.env(), stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True)
            try:
                xclip.stdin.write(text.encode())
                xclip.stdin.close()
                session_reads([tool("xclip"), "-selection", "clipboard", "-o"], text,
                              "the client's text in the session's X clipboard", x=True)
                session_reads([tool("wl-paste"), "--no-newline"], text,
                              "the client's text in the session's Wayland clipboard")
            finally:
                xclip.kill()
                xclip.wait()

            # session (Wayland) -> client
            text = "from Wayland: smörgåsbord\n\tdéjà vu"
            s.spawn_wayland([tool("wl-copy"), "--foreground", "--", text], name="wl-copy")
            client_reads(text, "the session's Wayland clipboard in xfreerdp's Xvfb")
            expect_eq(client.alive(), True, "xfreerdp still connected")


if __name__ == "__main__":
    harness.run(main)
