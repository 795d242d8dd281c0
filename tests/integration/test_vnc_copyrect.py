#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A moved window reaches viewers as CopyRect, and the pixels stay right.

An xterm showing some text is on screen; a libvncclient viewer (which
offers CopyRect) has the whole screen.  The window is then moved three
times: by `orielctl move` far away, by `orielctl move` a little (so the
old and new places overlap), and by the X client itself (XMoveWindow,
through xdotool).  After each move the viewer's framebuffer must equal a
screenshot, and the viewer must have received the window as CopyRect
rectangles with the move's offset that cover most of the window, instead
of its pixels.
"""
import harness
import vnc
from harness import NotYet, Session, expect, tool


def copies_since(v, mark):
    """(sx, sy, w, h, dx, dy) of the copyrect lines since mark."""
    return [tuple(int(n) for n in l.split()[1:7]) for l in v.lines_since(mark, "copyrect")]


def wait_same_as_screen(s, v, exclude, what):
    def same(img):
        shot = s.screenshot()
        bad, first = vnc.compare(img, shot, (0, 0, shot.width, shot.height),
                                 exclude=exclude)
        if bad:
            (x, y), pa, pb = first
            raise NotYet("%d pixels differ, first at (%d,%d): #%s vs #%s" % (
                bad, x, y, harness.colour_hex(pa), harness.colour_hex(pb)))
        return img
    return v.wait_framebuffer(same, what=what)


def check_move(s, v, exclude, win, move, target, what):
    """Moves the window with move(), waits for it at target (x, y)."""
    mark = v.mark()
    old = (win["x"], win["y"])
    move()
    win = s.wait_window(id=win["id"], where=lambda w: (w["x"], w["y"]) == target,
                        what="the window at %r after %s" % (target, what))
    wait_same_as_screen(s, v, exclude, "the viewer's pixels after %s" % what)
    copies = copies_since(v, mark)
    dx, dy = target[0] - old[0], target[1] - old[1]
    expect(copies, "no CopyRect after %s (lines: %r)" % (what, v.lines_since(mark)[-20:]))
    for sx, sy, w, h, x, y in copies:
        expect((x - sx, y - sy) == (dx, dy), "CopyRect %r after %s does not move "
               "by %r" % ((sx, sy, w, h, x, y), what, (dx, dy)))
    area = sum(c[2] * c[3] for c in copies)
    content = win["width"] * win["height"]
    expect(area * 2 >= content, "CopyRect after %s covers %d pixels, the window "
           "%d" % (what, area, content))
    v.quiesce(0.3)
    return win


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=vnc.vnc_args(port)) as s:
        s.spawn_x([tool("xterm"), "-geometry", "60x16+40+60", "-title", "copyrect",
                   "-e", "sh", "-c", "ls -l /; echo moving this window; exec sleep 1000"])
        win = s.wait_window(title="copyrect", kind="x11",
                            where=lambda w: w["width"] > 0 and w["height"] > 0)
        wid = s.wait_x_window("XTerm")
        exclude = s.park_pointer()
        vnc.wait_listening(s, vnc.tcp(port))
        v = vnc.Viewer(s, vnc.tcp(port))
        v.wait_connected()
        wait_same_as_screen(s, v, exclude, "the viewer's first pixels")
        v.quiesce(0.3)

        win = check_move(s, v, exclude, win,
                         lambda: s.orielctl("move", win["id"], 500, 400), (500, 400),
                         "orielctl move far")
        win = check_move(s, v, exclude, win,
                         lambda: s.orielctl("move", win["id"], 440, 360), (440, 360),
                         "orielctl move onto itself")
        check_move(s, v, exclude, win,
                   lambda: s.x_tool(tool("xdotool"), "windowmove", str(wid), "100", "120"),
                   (100, 120), "XMoveWindow")


if __name__ == "__main__":
    harness.run(main)
