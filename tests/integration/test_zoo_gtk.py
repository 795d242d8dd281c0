#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The app zoo, GTK 3 family: a python3-gi app on X (GDK_BACKEND=x11) with
a menubar and a dialog, as a person uses it (see zoo.run_app):
- it maps with oriel's title bar (GTK draws none itself here: oriel does
  not announce _GTK_FRAME_EXTENTS) and takes the focus on a click;
- its File menu drops exactly where GTK placed it;
- its Gtk.Dialog (transient) is titled and centred over the window;
- the dialog's title bar close button closes it, and `wmctrl -c` the app
  (both through WM_DELETE_WINDOW; the app exits with status 0).
"""
import harness
from harness import Session, Skip
import zoo

GTK_SCRIPT = r"""
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk

def say(text):
    print(text, flush=True)

css = Gtk.CssProvider()
css.load_from_data(b"menu, menu menuitem { background-color: #ff8000; "
                   b"background-image: none; border: none; box-shadow: none; }")
Gtk.StyleContext.add_provider_for_screen(Gdk.Screen.get_default(), css,
                                         Gtk.STYLE_PROVIDER_PRIORITY_USER)

win = Gtk.Window(title="zoo-gtk")
win.set_default_size(360, 240)
win.move(200, 150)
win.connect("destroy", Gtk.main_quit)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
bar = Gtk.MenuBar()
item = Gtk.MenuItem(label="File")
menu = Gtk.Menu()
for label in ("One", "Two", "Three"):
    menu.append(Gtk.MenuItem(label=label))
item.set_submenu(menu)
bar.append(item)
box.pack_start(bar, False, False, 0)

def mapped(widget, event):
    gdk_window = widget.get_window()
    x, y = gdk_window.get_origin()[1:]
    say("menu %d %d %d %d" % (x, y, gdk_window.get_width(), gdk_window.get_height()))
    return False

top = menu.get_toplevel()
top.connect("map-event", mapped)
top.connect("unmap-event", lambda *a: say("menu-unmap") or False)

def dialog(button):
    d = Gtk.Dialog(title="zoo-gtk dialog", transient_for=win)
    d.get_content_area().add(Gtk.Label(label="A dialog", margin=30))
    d.connect("delete-event", lambda *a: d.destroy() or True)
    d.show_all()

button = Gtk.Button(label="Dialog")
button.connect("clicked", dialog)
box.pack_start(button, True, True, 0)
win.add(box)
win.show_all()
Gtk.main()
"""


def main():
    python = zoo.python_with("gi")
    if not python:
        raise Skip("no Python 3 with gi (python3-gi)")
    with Session(outputs=["1024x768"]) as s:
        script = s.tmp / "zoo_gtk.py"
        script.write_text(GTK_SCRIPT)
        zoo.run_app(s, "gtk", ["env", "GDK_BACKEND=x11", "NO_AT_BRIDGE=1", python,
                               str(script)])
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
