#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--kiosk: every window fullscreen, dialogs centered over their parent.

- A colour client (which asks for 320x240) is given the whole output and
  presents that size; the windows list has it fullscreen over exactly the
  output, and the screenshot is its colour everywhere.
- xterm (an X app, one colour: foreground, cursor and background alike) is
  fullscreen over exactly the output too: windows list, xwininfo and
  _NET_WM_STATE agree, and the screenshot is its colour everywhere.  After
  `orielctl output-size` the xterm follows the new output size.
- A Tk app (wish) opens a dialog transient for its main window
  (WM_TRANSIENT_FOR, set by Tk before the dialog maps) once the main window
  is fullscreen: the dialog keeps its own size, is not fullscreen, is
  centered over its parent, has the focus, and a person sees it: the
  screenshot shows the dialog's colour over its rectangle, and the parent's
  colour around it.
"""
import harness
from harness import NotYet, Session, expect, expect_eq, geometry, tool

OUTPUT = (1024, 768)
RESIZED = (800, 600)
COLOUR = (0x30, 0x50, 0xe0)
XTERM_COLOUR = (0x20, 0x40, 0x80)
TK_MAIN_COLOUR = (0xc0, 0x30, 0x20)
TK_DIALOG_COLOUR = (0x20, 0xc0, 0x40)
DIALOG_SIZE = (200, 120)

# argv: the file whose appearance makes the app show its dialog.
TK_SCRIPT = r'''
set trigger [lindex $argv 0]
wm title . "kiosk app"
. configure -background #%(main)s -width 300 -height 200
toplevel .d -background #%(dialog)s -width %(dw)d -height %(dh)d
wm title .d "kiosk dialog"
wm withdraw .d
wm transient .d .
proc poll {} {
    global trigger
    if {[file exists $trigger]} {
        wm deiconify .d
    } else {
        after 20 poll
    }
}
poll
''' % {"main": harness.colour_hex(TK_MAIN_COLOUR),
       "dialog": harness.colour_hex(TK_DIALOG_COLOUR),
       "dw": DIALOG_SIZE[0], "dh": DIALOG_SIZE[1]}


def main():
    with Session(outputs=["%dx%d" % OUTPUT], kiosk=True) as s:
        name = s.output()["name"]
        area = s.output_rect()
        expect_eq(area, (0, 0) + OUTPUT, "output rectangle")

        # -- a Wayland client
        c = s.spawn_colour(COLOUR, size=(320, 240), title="kiosk wayland",
                           app_id="org.oriel.test.kiosk")
        c.wait_ready(size=OUTPUT)
        win = s.wait_window(app_id="org.oriel.test.kiosk",
                            where=lambda w: w["fullscreen"] and geometry(w) == area,
                            what="the colour client to be fullscreen over %r" % (area,))
        exclude = s.park_pointer()
        s.wait_colour(area, COLOUR, exclude=exclude,
                      what="the whole output to show the colour client")
        s.orielctl("close", win["id"])
        c.wait(timeout=10)
        s.wait_no_window(id=win["id"])

        # -- an X app
        hexc = "#" + harness.colour_hex(XTERM_COLOUR)
        s.spawn_x([tool("xterm"), "-geometry", "40x10+30+40", "-title", "kiosk xterm",
                   "-bg", hexc, "-fg", hexc, "-cr", hexc, "-bd", hexc,
                   "-e", "sleep", "1000000"])
        xwin = s.wait_window(app_id="XTerm", kind="x11",
                             where=lambda w: w["fullscreen"] and geometry(w) == area,
                             what="xterm to be fullscreen over %r" % (area,))
        wid = s.wait_x_window("XTerm")
        _x_agrees(s, wid, xwin["id"], area)
        s.wait_for(lambda: _net_wm_fullscreen(s, wid),
                   what="xterm's _NET_WM_STATE to say fullscreen")
        exclude = s.park_pointer()
        s.wait_colour(area, XTERM_COLOUR, exclude=exclude,
                      what="the whole output to show the xterm")

        s.orielctl("output-size", name, "%dx%d" % RESIZED)
        area = (0, 0) + RESIZED
        s.wait_for(lambda: s.output_rect(name) == area,
                   what="orielctl outputs to report %dx%d" % RESIZED)
        s.wait_window(id=xwin["id"],
                      where=lambda w: w["fullscreen"] and geometry(w) == area,
                      what="xterm to follow the output to %r" % (area,))
        _x_agrees(s, wid, xwin["id"], area)
        exclude = s.park_pointer()
        s.wait_colour(area, XTERM_COLOUR, exclude=exclude,
                      what="the resized output to show only the xterm")
        shot = s.screenshot()
        expect_eq((shot.width, shot.height), RESIZED, "screenshot size")

        # -- an X dialog transient for a fullscreen X window
        script = s.tmp / "kiosk-dialog.tcl"
        script.write_text(TK_SCRIPT)
        trigger = s.tmp / "show-dialog"
        s.spawn_x([tool("wish"), str(script), str(trigger)], name="wish")
        main_win = s.wait_window(title="kiosk app", kind="x11",
                                 where=lambda w: w["fullscreen"] and geometry(w) == area,
                                 what="the Tk main window to be fullscreen over %r"
                                 % (area,))
        exclude = s.park_pointer()
        s.wait_colour(area, TK_MAIN_COLOUR, exclude=exclude,
                      what="the whole output to show the Tk main window")

        trigger.write_text("")
        want = ((RESIZED[0] - DIALOG_SIZE[0]) // 2,
                (RESIZED[1] - DIALOG_SIZE[1]) // 2) + DIALOG_SIZE
        dialog = s.wait_window(title="kiosk dialog", kind="x11",
                               what="the Tk dialog to be listed")
        dwid = s.wait_for(lambda: _x_named(s, "kiosk dialog"),
                          what="the dialog's X window")
        transient = s.xprop(dwid, "WM_TRANSIENT_FOR")
        expect("window id #" in transient,
               "the dialog has no WM_TRANSIENT_FOR: %r" % transient)
        dialog = s.wait_window(id=dialog["id"],
                               where=lambda w: not w["fullscreen"] and
                               geometry(w) == want,
                               what="the dialog to keep its %dx%d and be centered "
                               "over its parent at %r" % (DIALOG_SIZE + (want,)))
        s.wait_for(lambda: _focused(s, dialog["id"]),
                   what="the dialog to have the focus")
        main_win = s.window_by(id=main_win["id"])
        expect(main_win is not None and main_win["fullscreen"] and
               geometry(main_win) == area,
               "the Tk main window left fullscreen when its dialog opened: %r"
               % main_win)
        exclude = s.park_pointer()
        s.wait_colour(want, TK_DIALOG_COLOUR, exclude=exclude,
                      what="the dialog's colour over its rectangle %r (a person "
                      "must see the dialog)" % (want,))
        # ... and around it, the parent (so the dialog is exactly there).
        shot = s.screenshot()
        for (x, y), px in shot.pixels(area):
            if harness._inside(want, x, y) or harness._inside(exclude, x, y):
                continue
            expect(px == TK_MAIN_COLOUR, "pixel (%d,%d) outside the dialog %r is "
                   "#%s, not the parent's #%s" % (x, y, want, harness.colour_hex(px),
                                                   harness.colour_hex(TK_MAIN_COLOUR)))


def _x_named(s, title):
    ids = s.x_search(name=title)
    if len(ids) != 1:
        raise NotYet("xdotool search --name %r: %r" % (title, ids))
    return ids[0]


def _focused(s, wid):
    wins = s.windows()
    focused = [w["id"] for w in wins if w["focused"]]
    if focused != [wid]:
        raise NotYet("focused: %r; windows: %s" % (focused, harness.brief_windows(wins)))
    return True


def _x_agrees(s, wid, win_id, area):
    def agrees():
        info = s.xwininfo(wid)
        x11 = (info["x"], info["y"], info["width"], info["height"])
        if x11 != area:
            raise NotYet("xwininfo says %r" % (x11,))
        win = s.window_by(id=win_id)
        expect(win is not None, "window %d vanished from the list" % win_id)
        expect_eq(geometry(win), area, "orielctl geometry of window %d" % win_id)
        return True
    s.wait_for(agrees, what="xwininfo to report %r" % (area,))


def _net_wm_fullscreen(s, wid):
    value = s.xprop(wid, "_NET_WM_STATE")
    if "_NET_WM_STATE_FULLSCREEN" not in value:
        raise NotYet("xprop: %s" % value)
    return True


if __name__ == "__main__":
    harness.run(main)
