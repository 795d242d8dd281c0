#!/usr/bin/env python3
"""The app zoo, Tk family: a wish script and a python3 tkinter app, each
with a menubar and a dialog (a transient Toplevel), as a person uses them.

- the main window maps with a title bar and takes the focus on a click;
- clicking "File" in the menubar drops its menu (an override-redirect
  window) exactly where Tk placed it: the app prints the menu's root
  geometry when it maps, and the screenshot shows the menu's orange there,
  stopping at its edges;
- the "Dialog" button opens a transient Toplevel: titled, centred over
  the main window;
- orielctl close on the dialog makes Tk destroy it (WM_DELETE_WINDOW) and
  the app goes on; on the main window the app exits with status 0.
"""
import os
import re
import shutil
import subprocess
import sys

import harness
from harness import NotYet, Session, Skip, expect, tool
import zoo

MENU = (0xff, 0x80, 0x00)

WISH_SCRIPT = r"""
wm title . "zoo-@NAME@"
wm geometry . 360x240+200+150
menu .mb
menu .mb.file -tearoff 0 -background #ff8000 -activebackground #ff8000
.mb add cascade -label File -menu .mb.file
.mb.file add command -label One
.mb.file add command -label Two
.mb.file add command -label Three
. configure -menu .mb
button .open -text Dialog -command {
    toplevel .d
    wm title .d "zoo-@NAME@ dialog"
    wm transient .d .
    label .d.l -text "A dialog" -padx 40 -pady 30
    pack .d.l
}
pack .open -expand 1 -fill both
bind Menu <Map> {+puts "menu [winfo rootx %W] [winfo rooty %W] [winfo width %W] [winfo height %W]"; flush stdout}
bind Menu <Unmap> {+puts "menu-unmap"; flush stdout}
"""

TKINTER_SCRIPT = r"""
import sys
import tkinter as tk

root = tk.Tk()
root.title("zoo-@NAME@")
root.geometry("360x240+200+150")
mb = tk.Menu(root)
file_menu = tk.Menu(mb, tearoff=0, background="#ff8000", activebackground="#ff8000")
for label in ("One", "Two", "Three"):
    file_menu.add_command(label=label)
mb.add_cascade(label="File", menu=file_menu)
root.configure(menu=mb)

def say(text):
    print(text, flush=True)

def dialog():
    d = tk.Toplevel(root)
    d.title("zoo-@NAME@ dialog")
    d.transient(root)
    tk.Label(d, text="A dialog", padx=40, pady=30).pack()

tk.Button(root, text="Dialog", command=dialog).pack(expand=1, fill="both")
def mapped(event):
    # Menubar menus are Tk clones that tkinter has no object for.
    path = str(event.widget)
    say("menu " + " ".join(str(root.tk.call("winfo", what, path))
                           for what in ("rootx", "rooty", "width", "height")))

root.bind_class("Menu", "<Map>", mapped, add="+")
root.bind_class("Menu", "<Unmap>", lambda e: say("menu-unmap"), add="+")
root.mainloop()
"""


def python_with(module):
    """A Python 3 that has module: this one or the system's."""
    for exe in (sys.executable, "/usr/bin/python3"):
        if exe and os.access(exe, os.X_OK) and subprocess.run(
                [exe, "-c", "import " + module], capture_output=True).returncode == 0:
            return exe
    return None


def menu_lands(s, client, win, count):
    """Clicks File in the menubar; checks the menu is where Tk put it."""
    s.click(win["x"] + 15, win["y"] + 10)

    def placed():
        lines = re.findall(r"^menu (-?\d+) (-?\d+) (\d+) (\d+)$", client.log(), re.M)
        if len(lines) < count:
            raise NotYet("the app has not mapped its menu")
        return tuple(int(v) for v in lines[count - 1])
    rect = s.wait_for(placed, what="%s's menu mapped" % win["title"])
    expect(rect[2] > 20 and rect[3] > 20, "menu geometry %r" % (rect,))

    def on_screen():
        img = s.screenshot()

        def share(box):
            return img.count_colour(box, MENU, 10) / float(box[2] * box[3])
        inside = share((rect[0] + 2, rect[1] + 2, rect[2] - 4, rect[3] - 4))
        left = share((rect[0] - 5, rect[1] + 2, 3, rect[3] - 4))
        right = share((rect[0] + rect[2] + 2, rect[1] + 2, 3, rect[3] - 4))
        below = share((rect[0] + 2, rect[1] + rect[3] + 2, rect[2] - 4, 3))
        if inside < 0.5 or max(left, right, below) > 0.05:
            raise NotYet("menu %r orange: %.0f%% inside, %.0f%% left, %.0f%% right, "
                         "%.0f%% below" % (rect, inside * 100, left * 100, right * 100,
                                           below * 100))
        return True
    s.wait_for(on_screen, what="%s's menu on screen where Tk put it" % win["title"])
    s.key_sym("Escape")

    def closed():
        if client.log().count("menu-unmap") < count:
            raise NotYet("menu still mapped")
        return True
    s.wait_for(closed, what="%s's menu closed" % win["title"])


def run_app(s, name, argv):
    client = s.spawn_x(argv, name=name)
    title = "zoo-" + name
    win = s.wait_window(title=title, kind="x11", what="%s mapped" % title)
    zoo.wait_decorated(s, win)
    wid = s.wait_x_window(win["app_id"])
    # On the menubar, right of its entries: nothing happens but the focus.
    zoo.click_focuses(s, win, wid, at=(win["x"] + win["width"] - 20, win["y"] + 10))

    menu_lands(s, client, win, 1)

    # The Dialog button fills the window below the menubar.
    s.click(win["x"] + win["width"] // 2, win["y"] + 150)
    dialog = s.wait_window(title=title + " dialog", kind="x11",
                           where=lambda w: w["width"] > 0)
    zoo.wait_decorated(s, dialog)
    win = s.window_by(id=win["id"])
    mc, dc = zoo.centre(win), zoo.centre(dialog)
    expect(abs(mc[0] - dc[0]) <= 2 and abs(mc[1] - dc[1]) <= 2,
           "dialog centred at %r, main window at %r" % (dc, mc))

    s.orielctl("close", dialog["id"], json=False)
    s.wait_no_window(id=dialog["id"])
    expect(client.alive(), "%s exited when its dialog closed" % name)
    zoo.closes_politely(s, client, s.window_by(id=win["id"]), wid)


def main():
    wish = shutil.which("wish") or tool("wish")
    tk_python = python_with("tkinter")
    if not tk_python:
        raise Skip("no Python 3 with tkinter")
    with Session(outputs=["1024x768"]) as s:
        script = s.tmp / "zoo.tcl"
        script.write_text(WISH_SCRIPT.replace("@NAME@", "wish"))
        run_app(s, "wish", [wish, str(script)])

        script = s.tmp / "zoo_tk.py"
        script.write_text(TKINTER_SCRIPT.replace("@NAME@", "tkinter"))
        run_app(s, "tkinter", [tk_python, str(script)])
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
