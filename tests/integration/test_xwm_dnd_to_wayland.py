#!/usr/bin/env python3
"""Drag and drop from an X app to a Wayland app.

Two GTK 3 windows (python3-gi): a drag source on X (GDK_BACKEND=x11)
whose green area drags the text "oriel-dnd-payload", and a drop target on
Wayland (GDK_BACKEND=wayland), blue, that prints what is dropped on it.
The pointer (oriel's virtual input, as a person's mouse) presses on the
green area, moves in steps over the blue window and releases:
- the Wayland app sees the drag come over it, and receives exactly the X
  app's text when it is dropped;
- the X app sees its drag end as a successful copy (drag-end, and no
  drag-failed);
- afterwards the X app still takes clicks (its pointer grab ended).
"""
import itertools

import harness
from harness import NotYet, Session, Skip, expect, expect_eq
import zoo

PAYLOAD = "oriel-dnd-payload"

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
    area.connect("drag-data-get",
                 lambda w, ctx, data, info, time: data.set_text(sys.argv[2], -1))
    area.connect("drag-end", lambda *a: say("drag-end"))
    area.connect("drag-failed", lambda w, ctx, result: say("drag-failed %s" % result) or False)
    area.connect("button-press-event", lambda *a: say("press") or False)
else:
    area.drag_dest_set(Gtk.DestDefaults.ALL, [], Gdk.DragAction.COPY)
    area.drag_dest_add_text_targets()
    seen = []
    def motion(*args):
        if not seen:
            seen.append(True)
            say("drag-motion")
        return False
    area.connect("drag-motion", motion)
    area.connect("drag-data-received",
                 lambda w, ctx, x, y, data, info, time: say("received %s" % data.get_text()))
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


def main():
    python = zoo.python_with("gi")
    if not python:
        raise Skip("no Python 3 with gi (python3-gi)")
    with Session(outputs=["1024x768"]) as s:
        s.park_pointer()
        script = s.tmp / "dnd.py"
        script.write_text(SCRIPT)
        source = s.spawn_x(["env", "GDK_BACKEND=x11", "NO_AT_BRIDGE=1", python,
                            str(script), "source", PAYLOAD], name="dnd-source")
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
        s.pointer_move(*start)
        s.orielctl("pointer", "button", "left", "press", json=False)
        wait_line(s, source, "press", "the X app to see the press")
        steps = 12
        for i in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * i // steps
            y = start[1] + (end[1] - start[1]) * i // steps
            s.pointer_move(x, y)
            if i == 2:
                wait_line(s, source, "drag-begin", "the X app to begin its drag")
        # A hand wiggles over the target until it shows it has the drag.
        wiggle = itertools.cycle((0, 4, 8))

        def target_has_drag():
            s.pointer_move(end[0] + next(wiggle), end[1])
            if "drag-motion" not in lines(target):
                raise NotYet("the Wayland app printed %r" % lines(target)[-4:])
            return True
        s.wait_for(target_has_drag, what="the drag to reach the Wayland app")
        s.orielctl("pointer", "button", "left", "release", json=False)

        wait_line(s, target, "received " + PAYLOAD, "the Wayland app to receive the text")
        wait_line(s, source, "drag-end", "the X app's drag to end")
        failed = [l for l in lines(source) if l.startswith("drag-failed")]
        expect_eq(failed, [], "the X app's drag failures")

        # The X app's grab is over: a new click reaches it.
        before = lines(source).count("press")
        s.click(*start)

        def pressed_again():
            if lines(source).count("press") <= before:
                raise NotYet("no new press in %r" % lines(source)[-4:])
            return True
        s.wait_for(pressed_again, what="the X app to take a click after the drop")
        expect(target.alive() and source.alive(), "an app died")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
