#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Drag and drop from an X app to a Wayland app.

Two GTK 3 windows (python3-gi): a drag source on X (GDK_BACKEND=x11)
whose green area drags the text "oriel-dnd-payload", and a drop target on
Wayland (GDK_BACKEND=wayland), blue, that prints what is dropped on it.
The pointer (oriel's virtual input, as a person's mouse) presses on the
green area, moves in steps over the blue window and releases:
- the Wayland app sees the drag come over it, and receives exactly the X
  app's text when it is dropped: a short one, then 2.6 MB (which the X
  app sends in INCR pieces);
- the X app sees its drag end as a successful copy (drag-end, and no
  drag-failed);
- afterwards the X app still takes clicks (its pointer grab ended);
- the same short drag again, dropped where an override-redirect X window
  (oriel-test-xmove's, as a drag icon or a tooltip is) lies over the
  Wayland app: the drop still reaches the app. (An X app's drag icon
  follows the pointer a step behind: a drop target found under it would
  be the icon, and the drop nobody's.)
"""
import hashlib
import itertools

import harness
from harness import NotYet, Session, Skip, expect, expect_eq
import zoo

SMALL = "oriel-dnd-payload"
# Over X's request size: the X source sends it in INCR pieces.
BIG = "".join("line %06d of a large drag and drop payload\n" % i for i in range(60000))

SCRIPT = r"""
import sys
import gi
gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk

def say(text):
    print(text, flush=True)

mode = sys.argv[1]
win = Gtk.Window(title="dnd-" + mode)
win.set_default_size(240, 200)
area = Gtk.EventBox()
css = Gtk.CssProvider()
css.load_from_data(b"* { background-color: %s; }" %
                   (b"#20c040" if mode == "source" else b"#2040d0"))
area.get_style_context().add_provider(css, Gtk.STYLE_PROVIDER_PRIORITY_USER)
win.add(area)
win.connect("destroy", Gtk.main_quit)

if mode == "source":
    area.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
    area.drag_source_add_text_targets()
    area.connect("drag-begin", lambda *a: say("drag-begin"))
    def data_get(w, ctx, data, info, time):
        with open(sys.argv[2], encoding="utf-8") as f:
            data.set_text(f.read(), -1)
    area.connect("drag-data-get", data_get)
    area.connect("drag-end", lambda *a: say("drag-end"))
    area.connect("drag-failed", lambda w, ctx, result: say("drag-failed %s" % result) or False)
    area.connect("button-press-event", lambda *a: say("press") or False)
else:
    area.drag_dest_set(Gtk.DestDefaults.ALL, [], Gdk.DragAction.COPY)
    area.drag_dest_add_text_targets()
    import hashlib
    def received(w, ctx, x, y, data, info, time):
        text = data.get_text() or ""
        say("received %d %s" % (len(text), hashlib.sha256(text.encode()).hexdigest()))
    # GTK has answered the motion (accepted the drag) before this runs.
    area.connect("drag-motion", lambda *a: say("drag-motion") or False)
    area.connect("drag-data-received", received)
win.show_all()
say("ready")
Gtk.main()
"""


def lines(client):
    return client.log().splitlines()


def wait_line(s, client, text, what):
    def check():
        if text in lines(client):
            return True
        if not client.alive():
            raise harness.TestFailure("%s exited: %s" % (client.name, client.log()[-2000:]))
        raise NotYet("%s printed %r" % (client.name, lines(client)[-6:]))
    return s.wait_for(check, what=what)


def wait_more(s, client, text, before, what):
    """Waits until client printed the line text more than before times."""
    def check():
        if lines(client).count(text) <= before:
            raise NotYet("%s printed %r" % (client.name, lines(client)[-4:]))
        return True
    s.wait_for(check, what=what)


def drag(s, source, target, payload_file, payload, start, end):
    """Drags payload from the X app to the Wayland app, as a hand would."""
    payload_file.write_text(payload, encoding="utf-8")
    ends = lines(source).count("drag-end")
    presses = lines(source).count("press")
    motions = lines(target).count("drag-motion")
    s.pointer_move(*start)
    s.orielctl("pointer", "button", "left", "press", json=False)
    wait_more(s, source, "press", presses, "the X app to see the press")
    steps = 12
    for i in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * i // steps
        y = start[1] + (end[1] - start[1]) * i // steps
        s.pointer_move(x, y)
    # A hand wiggles over the target until it has seen the drag move twice:
    # it accepted at the first, and that answer reached oriel before the
    # second (a release before any answer is a drop nobody took).
    wiggle = itertools.cycle((0, 4, 8))

    def target_has_drag():
        s.pointer_move(end[0] + next(wiggle), end[1])
        if lines(target).count("drag-motion") < motions + 2:
            raise NotYet("the Wayland app printed %r" % lines(target)[-4:])
        return True
    s.wait_for(target_has_drag, what="the drag to reach the Wayland app")
    s.orielctl("pointer", "button", "left", "release", json=False)

    want = "received %d %s" % (len(payload), hashlib.sha256(payload.encode()).hexdigest())
    wait_line(s, target, want, "the Wayland app to receive the %d characters" % len(payload))
    wait_more(s, source, "drag-end", ends, "the X app's drag to end")
    failed = [l for l in lines(source) if l.startswith("drag-failed")]
    expect_eq(failed, [], "the X app's drag failures")


def main():
    python = zoo.python_with("gi")
    if not python:
        raise Skip("no Python 3 with gi (python3-gi)")
    with Session(outputs=["1024x768"]) as s:
        s.park_pointer()
        script = s.tmp / "dnd.py"
        script.write_text(SCRIPT)
        payload_file = s.tmp / "payload.txt"
        payload_file.write_text(SMALL, encoding="utf-8")
        source = s.spawn_x(["env", "GDK_BACKEND=x11", "NO_AT_BRIDGE=1", python,
                            str(script), "source", str(payload_file)], name="dnd-source")
        target = s.spawn_wayland(["env", "GDK_BACKEND=wayland", "NO_AT_BRIDGE=1", python,
                                  str(script), "target"], name="dnd-target")
        ws = s.wait_window(title="dnd-source", kind="x11",
                           where=lambda w: w["width"] > 100 and w["height"] > 100)
        wt = s.wait_window(title="dnd-target", where=lambda w: w["kind"] != "x11" and
                           w["width"] > 100 and w["height"] > 100)
        s.orielctl("move", ws["id"], 60, 200, json=False)
        s.orielctl("move", wt["id"], 560, 200, json=False)
        ws = s.wait_window(id=ws["id"], where=lambda w: (w["x"], w["y"]) == (60, 200))
        wt = s.wait_window(id=wt["id"], where=lambda w: (w["x"], w["y"]) == (560, 200))

        start = (ws["x"] + ws["width"] // 2, ws["y"] + ws["height"] // 2)
        end = (wt["x"] + wt["width"] // 2, wt["y"] + wt["height"] // 2)
        for payload in (SMALL, BIG):
            drag(s, source, target, payload_file, payload, start, end)

        # The X app's grab is over: a new click reaches it.
        before = lines(source).count("press")
        s.click(*start)

        def pressed_again():
            if lines(source).count("press") <= before:
                raise NotYet("no new press in %r" % lines(source)[-4:])
            return True
        s.wait_for(pressed_again, what="the X app to take a click after the drop")
        # An override-redirect X window over the drop point.
        cover = s.spawn_x([harness.exe("ORIEL_TEST_XMOVE"), "--steps", 1,
                           "--origin", "%d,%d" % (end[0] - 60, end[1] - 50)], name="cover")
        s.wait_for(lambda: "ready" in lines(cover) or NotYet("no window yet"),
                   what="the override-redirect window")
        s.pointer_move(*start)
        drag(s, source, target, payload_file, SMALL, start, end)
        expect(target.alive() and source.alive(), "an app died")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
