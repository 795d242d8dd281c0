#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wayvnc serves oriel's screen and input once the policy allows it.

wayvnc is a third-party VNC server that runs as an ordinary Wayland
client: it reads the screen through wlr-screencopy and injects input
through the virtual keyboard and pointer protocols.  By default oriel
hides those globals and wayvnc gives up.  With `screencopy` and
`virtual-input` granted to /usr/bin/wayvnc, the libvncclient test viewer,
connected to wayvnc on a loopback port, sees a known window's colour;
its click raises and focuses the window below (virtual pointer), and the
text it types reaches a shell in weston-terminal (virtual keyboard).
"""
import harness
import vnc
from harness import NotYet, Session, TestFailure, expect, expect_eq, tool

A = (0xd0, 0x20, 0x40)
B = (0x30, 0x50, 0xe0)
SIZE = (300, 200)
A_POS = (60, 60)
B_POS = (200, 160)
TEXT = "hello World 42"


def spawn_wayvnc(s, wayvnc, port, *extra):
    return s.spawn([wayvnc] + list(extra) + [vnc.LOCALHOST, str(port)],
                   name="wayvnc")


def refused_by_default(wayvnc):
    """wayvnc looks for the virtual pointer first, then for screencopy."""
    with Session(outputs=["800x600"]) as s:
        for extra, missing in (((), "virtual pointer"),
                               (("--disable-input",), "screencopy")):
            server = spawn_wayvnc(s, wayvnc, vnc.free_port(), *extra)
            status = server.wait()
            log = server.log()
            expect(status != 0, "wayvnc %s ran without permission:\n%s"
                   % (" ".join(extra), log))
            expect(missing in log.lower(),
                   "wayvnc's refusal does not name %s:\n%s" % (missing, log))


def main():
    wayvnc = tool("wayvnc")
    expect_eq(wayvnc, "/usr/bin/wayvnc", "wayvnc's path, as the policy names it")
    refused_by_default(wayvnc)

    port = vnc.free_port()
    args = ["--privileged", "screencopy=" + wayvnc,
            "--privileged", "virtual-input=" + wayvnc]
    with Session(outputs=["800x600"], args=args) as s:
        _, wa = s.colour_window_at(A, SIZE, A_POS, "A", "org.oriel.test.a")
        _, wb = s.colour_window_at(B, SIZE, B_POS, "B", "org.oriel.test.b")
        exclude = s.park_pointer()
        ra, rb = A_POS + SIZE, B_POS + SIZE
        s.wait_colour(rb, B, tolerance=0, exclude=exclude)

        server = spawn_wayvnc(s, wayvnc, port)
        vnc.wait_listening(s, vnc.tcp(port))
        expect(server.alive(), "wayvnc exited:\n%s" % server.log())
        v = vnc.Viewer(s, vnc.tcp(port))
        expect_eq(v.wait_connected(), (800, 600), "wayvnc's framebuffer size")
        v.wait_colour(rb, B, exclude=exclude, what="B through wayvnc")
        overlap = harness.intersect(ra, rb)
        probe = vnc.grow(overlap, -20, -20, -20, -20)

        # The viewer's click reaches oriel through wayvnc's virtual pointer.
        v.click(A_POS[0] + 30, A_POS[1] + 30)
        s.wait_window(id=wa["id"], where=lambda w: w["focused"],
                      what="A focused after the click from the viewer")
        v.wait_colour(probe, A, what="A raised over B, through wayvnc")

        # Typing reaches a Wayland client through wayvnc's virtual keyboard.
        out = s.tmp / "typed.txt"
        term = s.spawn([tool("weston-terminal"), "--shell=/bin/sh"],
                       env={"SHELL": "/bin/sh", "ENV": "", "PS1": "$ "})
        win = s.wait_window(app_id="org.freedesktop.weston.wayland-terminal",
                            where=lambda w: w["width"] > 0 and w["focused"],
                            what="weston-terminal's window, focused")
        v.click(win["x"] + win["width"] // 2, win["y"] + win["height"] // 2)
        v.type("printf '%%s\\n' '%s' > %s" % (TEXT, out))
        v.keysym("Return")

        def written():
            if not out.exists():
                if not term.alive():
                    raise TestFailure("weston-terminal exited without writing %s"
                                      % out)
                raise NotYet("%s not written yet" % out)
            return out.read_text(errors="replace")
        got = s.wait_for(written, what="the typed command to run")
        expect_eq(got, TEXT + "\n", "the line typed through wayvnc")
        expect(server.alive(), "wayvnc exited:\n%s" % server.log())


if __name__ == "__main__":
    harness.run(main)
