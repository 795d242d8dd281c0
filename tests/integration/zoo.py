"""Shared checks for the app zoo tests (test_zoo_*.py): real legacy X apps
map, get a title bar, take the focus on a click and close through
WM_DELETE_WINDOW, as a person sees them do."""
import re

from harness import NotYet, expect

TITLE = 24                  # compositor/decoration.h DECORATION_TITLE_HEIGHT
FOCUSED = (41, 89, 153)     # decoration.c title_focused
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


def closes_politely(s, client, win, wid=None, status=0):
    """orielctl close: the app gets WM_DELETE_WINDOW and exits by itself,
    with the status it gives that case (xmessage: 1, its translation
    "<ClientMessage>WM_PROTOCOLS: exit(1)")."""
    if wid is not None:
        expect("WM_DELETE_WINDOW" in s.xprop(wid, "WM_PROTOCOLS"),
               "%s does not list WM_DELETE_WINDOW" % win["title"])
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
