#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The app zoo, Tk family: a wish script and a python3 tkinter app, each
with a menubar and a dialog (a transient Toplevel), as a person uses them.

- the main window maps with a title bar and takes the focus on a click;
- clicking "File" in the menubar drops its menu (an override-redirect
  window) exactly where Tk placed it: the app prints the menu's root
  geometry when it maps, and the screenshot shows the menu's orange there,
  stopping at its edges;
- the "Dialog" button opens a transient Toplevel: titled, centred over
  the main window;
- the dialog's title bar close button makes Tk destroy it
  (WM_DELETE_WINDOW) and the app goes on; `wmctrl -c` on the main window
  makes the app exit with status 0.
"""
import shutil

import harness
from harness import Session, Skip, tool
import zoo

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


def main():
    wish = shutil.which("wish") or tool("wish")
    tk_python = zoo.python_with("tkinter")
    if not tk_python:
        raise Skip("no Python 3 with tkinter")
    with Session(outputs=["1024x768"]) as s:
        script = s.tmp / "zoo.tcl"
        script.write_text(WISH_SCRIPT.replace("@NAME@", "wish"))
        zoo.run_app(s, "wish", [wish, str(script)])

        script = s.tmp / "zoo_tk.py"
        script.write_text(TKINTER_SCRIPT.replace("@NAME@", "tkinter"))
        zoo.run_app(s, "tkinter", [tk_python, str(script)])
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
