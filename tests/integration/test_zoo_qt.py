#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The app zoo, Qt 5: qtbase's "menus" example on xcb (QT_QPA_PLATFORM=xcb),
a QMainWindow with a menubar, a context menu and an About box, as a person
uses it. A style sheet given on its command line paints its menus orange.
- it maps with oriel's title bar and takes the focus on a click;
- clicking File drops its menu (an override-redirect window) just below
  the click, under the File entry: where Qt put it in X (xwininfo), the
  screenshot shows the orange, stopping at its edges; so does a
  right-click's context menu, whose corner is the click point, and the
  File menu again once the window is maximized (Qt must know where oriel
  moved it);
- Help > About opens a QMessageBox, transient for the window: titled,
  centred over it and focused, so Escape typed on the keyboard closes it;
- wmctrl -b maximizes (and restores) the window and makes it fullscreen
  (and back): oriel's geometry, Qt's own (xwininfo) and the pixels agree;
- wmctrl -c closes the About box, then the window: the app exits by
  itself with status 0.
"""
import os

import harness
from harness import NotYet, Session, Skip, expect, expect_eq, geometry, tool
import zoo

MENUS = "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/mainwindows/menus/menus"
AREA = (0, 0, 1024, 768)
QT_GREY = (0xef, 0xef, 0xef)    # Fusion's window background
STYLE_SHEET = """
QMenu { background-color: #ff8000; border: none; }
QMenu::item, QMenu::item:selected { background-color: #ff8000; color: black; }
"""


def open_menu(s, client, at, button="left"):
    """Clicks at `at`; returns the menu Qt mapped: its X id and root
    geometry (x, y, width, height)."""
    before = zoo.viewable_top_level_ids(s)
    s.click(at[0], at[1], button)
    wid, info = s.wait_for(lambda: zoo.new_override_redirect(s, before),
                           what="a menu mapped after a click at %r" % (at,))
    rect = (info["x"], info["y"], info["width"], info["height"])
    expect(rect[2] > 40 and rect[3] > 40, "menu geometry %r" % (rect,))
    return wid, rect


def close_menu(s, wid):
    s.key_sym("Escape")

    def gone():
        if zoo.viewable(s, wid):
            raise NotYet("the menu is still shown")
        return True
    s.wait_for(gone, what="the menu closed by Escape")


def file_menu(s, client, win):
    """File drops its menu under the entry: its top edge on the menubar's
    bottom, a few pixels below the click, its left edge at the entry's,
    which Fusion puts a few pixels into the window."""
    at = (win["x"] + 15, win["y"] + 10)
    wid, rect = open_menu(s, client, at)
    expect(win["x"] <= rect[0] <= win["x"] + 10 and at[1] < rect[1] <= at[1] + 20,
           "File's menu at %r, clicked at %r in %r" % (rect, at, geometry(win)))
    zoo.menu_on_screen(s, rect, "the File menu")
    close_menu(s, wid)


def about_box(s, client, win):
    """Help > About: the QMessageBox, focused and centred over the window."""
    _, rect = open_menu(s, client, (win["x"] + 97, win["y"] + 10))
    # About is the first entry of the Help menu.
    s.click(rect[0] + 30, rect[1] + 12)
    dialog = s.wait_window(title="About Menu", kind="x11",
                           where=lambda w: w["width"] > 0 and w["focused"],
                           what="the About box mapped and focused")
    zoo.wait_decorated(s, dialog, focused=True)
    win = s.window_by(id=win["id"])
    mc, dc = zoo.centre(win), zoo.centre(dialog)
    expect(abs(mc[0] - dc[0]) <= 2 and abs(mc[1] - dc[1]) <= 2,
           "About box centred at %r, main window at %r" % (dc, mc))
    wid = s.wait_for(lambda: zoo.x_window_titled(s, "About Menu"),
                     what="the About box's X window")
    expect("WM_TRANSIENT_FOR" in s.xprop(wid, "WM_TRANSIENT_FOR") and
           "window id" in s.xprop(wid, "WM_TRANSIENT_FOR"),
           "the About box is not transient: %s" % s.xprop(wid, "WM_TRANSIENT_FOR"))
    info = s.xwininfo(wid)
    expect_eq((info["x"], info["y"], info["width"], info["height"]), geometry(dialog),
              "the About box's X geometry against oriel's")
    return dialog, wid


def qt_geometry(s, wid):
    info = s.xwininfo(wid)
    return (info["x"], info["y"], info["width"], info["height"])


def wait_qt_at(s, wid, rect, what):
    """Qt's window (xwininfo) gets to rect, where oriel put it."""
    def there():
        at = qt_geometry(s, wid)
        if at != tuple(rect):
            raise NotYet("Qt's window is at %r, not %r" % (at, tuple(rect)))
        return True
    s.wait_for(there, what=what)


def maximize(s, client, win, wid, wmctrl):
    normal = geometry(win)
    wmctrl("-i", "-r", hex(wid), "-b", "add,maximized_vert,maximized_horz")

    def filled(w):
        try:
            harness.fills_area(w, AREA)
            return w["maximized"]
        except NotYet:
            return False
    win = s.wait_window(id=win["id"], where=filled, what="Menus maximized")
    wait_qt_at(s, wid, geometry(win), "Qt's window where oriel maximized it")
    exclude = s.park_pointer()
    # Qt fills the maximized window: its grey reaches the output's bottom
    # right (less the frame's border), where the black root showed before.
    corner = (win["x"] + win["width"] - 100, win["y"] + win["height"] - 100, 36, 36)
    s.wait_colour(corner, QT_GREY, tolerance=3, exclude=exclude,
                  what="Qt's grey in the maximized window's corner")
    zoo.wait_decorated(s, win, focused=True)
    file_menu(s, client, win)

    wmctrl("-i", "-r", hex(wid), "-b", "remove,maximized_vert,maximized_horz")
    win = s.wait_window(id=win["id"], where=lambda w: not w["maximized"] and
                        geometry(w)[2:] == normal[2:], what="Menus back at its size")
    wait_qt_at(s, wid, geometry(win), "Qt's window back at its size")
    return win


def fullscreen(s, win, wid, wmctrl):
    normal = geometry(win)
    wmctrl("-i", "-r", hex(wid), "-b", "add,fullscreen")
    s.wait_window(id=win["id"], where=lambda w: w["fullscreen"] and geometry(w) == AREA,
                  what="Menus fullscreen")
    wait_qt_at(s, wid, AREA, "Qt's window over the whole output")
    exclude = s.park_pointer()

    def covered():
        # No title bar: Qt's menubar grey is at the top, its window grey at
        # the bottom, edge to edge.
        img = s.screenshot()
        top = img.count_colour((0, 0, 1024, 24), zoo.FOCUSED, 3)
        grey = img.count_colour((0, 600, 1024, 168), QT_GREY, 3, exclude=exclude)
        if top > 0 or grey < (1024 * 168 - 64 * 64) * 0.9:
            raise NotYet("fullscreen: %d title bar pixels at the top, %d grey at the "
                         "bottom; top %s" % (top, grey, img.describe((0, 0, 1024, 24))))
        return True
    s.wait_for(covered, what="Qt's window covering the output")
    wmctrl("-i", "-r", hex(wid), "-b", "remove,fullscreen")
    return s.wait_window(id=win["id"], where=lambda w: not w["fullscreen"] and
                         geometry(w)[2:] == normal[2:], what="Menus out of fullscreen")


def main():
    if not os.access(MENUS, os.X_OK):
        raise Skip("no Qt 5 menus example (qtbase5-examples)")
    with Session(outputs=["1024x768"]) as s:
        wmctrl = lambda *args: s.x_tool(tool("wmctrl"), *args)
        sheet = s.tmp / "zoo.qss"
        sheet.write_text(STYLE_SHEET)
        client = s.spawn_x(["env", "QT_QPA_PLATFORM=xcb", "QT_ACCESSIBILITY=0", MENUS,
                            "-style", "Fusion", "-stylesheet", str(sheet)], name="qt")
        win = zoo.app_window(s, "menus", what="Menus mapped")
        expect_eq(win["title"], "Menus", "the window's title")
        zoo.wait_decorated(s, win)
        wid = s.wait_for(lambda: zoo.x_window_titled(s, "Menus"), what="Menus' X window")
        expect_eq(qt_geometry(s, wid), geometry(win), "Qt's X geometry against oriel's")
        # Right of the menubar's entries: nothing happens but the focus.
        zoo.click_focuses(s, win, wid, at=(win["x"] + win["width"] - 20, win["y"] + 10))

        file_menu(s, client, win)

        # The context menu's top left corner is the click point.
        at = (win["x"] + 150, win["y"] + 220)
        menu, rect = open_menu(s, client, at, button="right")
        expect(abs(rect[0] - at[0]) <= 2 and abs(rect[1] - at[1]) <= 2,
               "context menu at %r, right-clicked at %r" % (rect, at))
        zoo.menu_on_screen(s, rect, "the context menu")
        close_menu(s, menu)

        # The About box takes the keyboard: Escape closes it.
        dialog, _ = about_box(s, client, win)
        s.key_sym("Escape")
        s.wait_no_window(id=dialog["id"])
        s.wait_window(id=win["id"], where=lambda w: w["focused"],
                      what="the focus back on Menus")

        win = maximize(s, client, s.window_by(id=win["id"]), wid, wmctrl)
        win = fullscreen(s, win, wid, wmctrl)

        # wmctrl -c closes the About box (and the app goes on), then the app.
        dialog, dialog_wid = about_box(s, client, win)
        wmctrl("-i", "-c", hex(dialog_wid))
        s.wait_no_window(id=dialog["id"])
        expect(client.alive(), "the app exited when its About box closed")
        wmctrl("-i", "-c", hex(wid))
        code = client.wait()
        s.wait_no_window(id=win["id"])
        expect_eq(code, 0, "the app's exit status:\n" + client.log())
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
