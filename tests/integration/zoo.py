# SPDX-License-Identifier: MIT
"""Shared checks for the app zoo tests (test_zoo_*.py): real legacy X apps
map, get a title bar, take the focus on a click and close through
WM_DELETE_WINDOW, as a person sees them do."""
import os
import re
import subprocess
import sys

import frame
from harness import NotYet, expect, tool

TITLE = 24                  # compositor/decoration.h DECORATION_TITLE_HEIGHT
FOCUSED = (41, 89, 153)     # decoration.c title_focused
MENU = (0xff, 0x80, 0x00)   # the zoo apps' menu background
UNFOCUSED = (89, 89, 97)    # decoration.c title_unfocused


def centre(w):
    return (w["x"] + w["width"] // 2, w["y"] + w["height"] // 2)


def wait_decorated(s, win, focused=None):
    """The title bar is drawn above the window, in the focus colour."""
    colours = [FOCUSED, UNFOCUSED] if focused is None else [
        FOCUSED if focused else UNFOCUSED]

    def check():
        w = s.window_by(id=win["id"])
        expect(w is not None, "window %s is gone" % win["id"])
        rect = (w["x"], w["y"] - TITLE, w["width"], TITLE)
        img = s.screenshot(region=rect)
        area = (0, 0, rect[2], rect[3])
        share = max(img.count_colour(area, c, 3) for c in colours) / float(
            rect[2] * rect[3])
        if share < 0.5:
            raise NotYet("title bar of %s: %s" % (w["title"], img.describe(area)))
        return w
    return s.wait_for(check, what="%s's title bar" % win["title"])


def takes_input(s, wid):
    """ICCCM WM_HINTS input: False means the app never wants the keyboard."""
    return "accepts input or input focus: False" not in s.xprop(wid, "WM_HINTS")


def click_focuses(s, win, wid, at=None):
    """A click raises the window and gives it the focus (a focused title
    bar), unless its WM_HINTS say it takes no input (xclock, xeyes): then
    it is raised and the focus stays where it was."""
    x, y = at or centre(win)
    before = next((w["id"] for w in s.windows() if w["focused"]), None)
    s.click(x, y)
    if takes_input(s, wid):
        s.wait_window(id=win["id"], where=lambda w: w["focused"],
                      what="%s focused by a click" % win["title"])
        wait_decorated(s, win, focused=True)
        return

    def raised():
        wins = s.windows()
        focused = next((w["id"] for w in wins if w["focused"]), None)
        expect(focused == before, "%s (no input) took the focus" % win["title"])
        if wins[-1]["id"] != win["id"]:
            raise NotYet("on top: %s" % wins[-1]["title"])
        return True
    s.wait_for(raised, what="%s raised by a click" % win["title"])


def closes_politely(s, client, win, wid=None, status=0, how="orielctl"):
    """orielctl close (or, with how="wmctrl", `wmctrl -i -c` on wid): the
    app gets WM_DELETE_WINDOW and exits by itself, with the status it gives
    that case (xmessage: 1, its translation
    "<ClientMessage>WM_PROTOCOLS: exit(1)")."""
    if wid is not None:
        expect("WM_DELETE_WINDOW" in s.xprop(wid, "WM_PROTOCOLS"),
               "%s does not list WM_DELETE_WINDOW" % win["title"])
    if how == "wmctrl":
        s.x_tool(tool("wmctrl"), "-i", "-c", str(wid))
    else:
        s.orielctl("close", win["id"], json=False)
    code = client.wait()
    s.wait_no_window(id=win["id"])
    expect(not re.search(r"I/?O error|connection to .* broken|killed", client.log(), re.I),
           "%s was killed, not asked to close:\n%s" % (win["title"], client.log()))
    expect(code == status, "%s exited with %s, not %s:\n%s" % (
        win["title"], code, status, client.log()))


def app_window(s, app_id, what=None):
    return s.wait_window(app_id=app_id, kind="x11", what=what,
                         where=lambda w: w["width"] > 0 and w["height"] > 0)


def x_window_titled(s, title):
    ids = s.x_search(name=title)
    if len(ids) != 1:
        raise NotYet("X windows titled %r: %r" % (title, ids))
    return ids[0]


def python_with(module):
    """A Python 3 that can import module: this one or the system's."""
    for exe in (sys.executable, "/usr/bin/python3"):
        if exe and os.access(exe, os.X_OK) and subprocess.run(
                [exe, "-c", "import " + module], capture_output=True).returncode == 0:
            return exe
    return None


def top_level_ids(s):
    """The X ids ("0x...") of the root's children."""
    out = s.x_tool(tool("xwininfo"), "-root", "-children").stdout
    return set(re.findall(r"^\s+(0x[0-9a-f]+) ", out, re.M))


def viewable_top_level_ids(s):
    """The X ids of the root's children that are viewable now (toolkits
    such as Qt map the same menu window again and again)."""
    return set(wid for wid in top_level_ids(s) if viewable(s, wid))


def new_override_redirect(s, before):
    """A viewable top-level window that was not in `before` (window ids,
    from top_level_ids or viewable_top_level_ids): its id and xwininfo,
    where its app put it in X."""
    out = s.x_tool(tool("xwininfo"), "-root", "-children").stdout
    for line in out.splitlines():
        m = re.match(r"\s+(0x[0-9a-f]+) .*?(\d+)x(\d+)\+(-?\d+)\+(-?\d+)\s+\+(-?\d+)\+(-?\d+)",
                     line)
        if m and m.group(1) not in before and viewable(s, m.group(1)):
            return m.group(1), s.xwininfo(int(m.group(1), 16))
    raise NotYet("no new viewable top-level window")


def viewable(s, wid):
    """Whether X window wid ("0x...") is mapped and viewable; a window
    destroyed meanwhile is not."""
    res = s.x_tool(tool("xwininfo"), "-id", wid, check=False)
    return res.returncode == 0 and re.search(r"Map State:\s+IsViewable", res.stdout) is not None


def menu_on_screen(s, rect, what, colour=MENU):
    """The menu's colour fills rect (root coordinates) on the screenshot and
    stops at its left, right and bottom edges."""
    def on_screen():
        img = s.screenshot()

        def share(box):
            return img.count_colour(box, colour, 10) / float(box[2] * box[3])
        inside = share((rect[0] + 2, rect[1] + 2, rect[2] - 4, rect[3] - 4))
        left = share((rect[0] - 5, rect[1] + 2, 3, rect[3] - 4))
        right = share((rect[0] + rect[2] + 2, rect[1] + 2, 3, rect[3] - 4))
        below = share((rect[0] + 2, rect[1] + rect[3] + 2, rect[2] - 4, 3))
        if inside < 0.5 or max(left, right, below) > 0.05:
            raise NotYet("menu %r coloured: %.0f%% inside, %.0f%% left, %.0f%% right, "
                         "%.0f%% below" % (rect, inside * 100, left * 100, right * 100,
                                           below * 100))
        return True
    s.wait_for(on_screen, what="%s on screen where the app put it" % what)


# The zoo apps with a menubar and a dialog (test_zoo_tk.py, test_zoo_gtk.py)
# are titled "zoo-NAME", have an orange File menu first in their menubar,
# print "menu X Y W H" (root geometry) when a menu maps and "menu-unmap"
# when it goes, and open "zoo-NAME dialog", a transient, from a button
# filling the window below the menubar.

def menu_lands(s, client, win, count, hold=False):
    """Clicks File in the menubar (or presses and holds the button there,
    with hold); checks the menu is on screen where the app put it."""
    s.pointer_move(win["x"] + 15, win["y"] + 10)
    s.orielctl("pointer", "button", "left", "press" if hold else "click", json=False)

    def placed():
        lines = re.findall(r"^menu (-?\d+) (-?\d+) (\d+) (\d+)$", client.log(), re.M)
        if len(lines) < count:
            raise NotYet("the app has not mapped its menu")
        return tuple(int(v) for v in lines[count - 1])
    rect = s.wait_for(placed, what="%s's menu mapped" % win["title"])
    expect(rect[2] > 20 and rect[3] > 20, "menu geometry %r" % (rect,))

    menu_on_screen(s, rect, "%s's menu" % win["title"])
    if hold:
        s.orielctl("pointer", "button", "left", "release", json=False)
    else:
        s.key_sym("Escape")

    def closed():
        if client.log().count("menu-unmap") < count:
            raise NotYet("menu still mapped")
        return True
    s.wait_for(closed, what="%s's menu closed" % win["title"])


def run_app(s, name, argv, menu_hold=False):
    client = s.spawn_x(argv, name=name)
    title = "zoo-" + name
    win = s.wait_window(title=title, kind="x11", what="%s mapped" % title)
    wait_decorated(s, win)
    wid = s.wait_for(lambda: x_window_titled(s, title), what="%s's X window" % title)
    # On the menubar, right of its entries: nothing happens but the focus.
    click_focuses(s, win, wid, at=(win["x"] + win["width"] - 20, win["y"] + 10))

    menu_lands(s, client, win, 1, hold=menu_hold)

    # The Dialog button fills the window below the menubar.
    s.click(win["x"] + win["width"] // 2, win["y"] + 150)
    dialog = s.wait_window(title=title + " dialog", kind="x11",
                           where=lambda w: w["width"] > 0)
    wait_decorated(s, dialog)
    win = s.window_by(id=win["id"])
    mc, dc = centre(win), centre(dialog)
    expect(abs(mc[0] - dc[0]) <= 2 and abs(mc[1] - dc[1]) <= 2,
           "dialog centred at %r, main window at %r" % (dc, mc))

    # The dialog's title bar close button closes it; wmctrl -c the app.
    frame.click(s, frame.centre(frame.button_rect(s.window_by(id=dialog["id"]), "close")))
    s.wait_no_window(id=dialog["id"])
    expect(client.alive(), "%s exited when its dialog closed" % name)
    closes_politely(s, client, s.window_by(id=win["id"]), wid, how="wmctrl")


