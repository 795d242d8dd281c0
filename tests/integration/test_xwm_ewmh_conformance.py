#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""EWMH conformance: every atom oriel advertises in _NET_SUPPORTED works.

_NET_SUPPORTED is read from the root window at run time, and each atom in
it runs its check from CHECKS below. An advertised atom without a check
fails the test, so nothing can be advertised unverified; a check whose
atom is not advertised runs too, and fails the test if it passes (the
feature works, so it should be advertised).

Each check drives oriel as real X clients do: oriel-test-xclient maps
windows with exactly the properties asked for, sends EWMH client messages
to the root (source indication 1 for an app, 2 for a pager, EWMH 1.5) and
sets properties on its windows. The effect is asserted as a person or an
app sees it: the properties (_NET_WM_STATE, _NET_ACTIVE_WINDOW,
_NET_FRAME_EXTENTS, _NET_WM_ALLOWED_ACTIONS, _NET_CLIENT_LIST[_STACKING],
_NET_WORKAREA...), the geometry in `orielctl windows` and xwininfo, the
stacking, and the pixels where the effect shows.

Window types get their policy (decoration, placement, focus on map,
layer); each action (_NET_WM_ACTION_*) is allowed on a normal window, and
the request it stands for has its effect.

A few ICCCM features no other test covers are checked after the atoms
(ICCCM_CHECKS).
"""
import re
import traceback

import harness
from harness import NotYet, Session, TestFailure, expect, expect_eq, geometry, tool
from xclient import check_sync_protocol, spawn, sync_events, xclient_path

W, H = 1024, 768
TITLE, BORDER = 24, 1
EXTENTS = [BORDER, BORDER, TITLE + BORDER, BORDER]  # left, right, top, bottom
NO_EXTENTS = [0, 0, 0, 0]
TITLE_COLOURS = ((41, 89, 153), (89, 89, 97))  # decoration.c focused, unfocused
ATTENTION = (255, 140, 0)                      # decoration.c title_attention
ICON_SIZE, ICON_MARGIN = 16, 4                 # decoration.h
ALL_DESKTOPS = 0xffffffff
SOURCE_APP, SOURCE_PAGER = 1, 2
REMOVE, ADD, TOGGLE = 0, 1, 2
ANCHOR = (0x50, 0x50, 0x58)
ALL_ACTIONS = ("MOVE", "RESIZE", "MINIMIZE", "MAXIMIZE_HORZ", "MAXIMIZE_VERT",
               "FULLSCREEN", "CLOSE")


def rgb_hex(rgb):
    return harness.colour_hex(rgb)


def value_of(out):
    """What xprop printed after '=' (or ':' for windows), or NotYet."""
    if "not found" in out or "no such atom" in out:
        raise NotYet(out)
    m = re.search(r"[=:]\s*(.*)$", out, re.S)
    if not m:
        raise NotYet(out)
    return m.group(1).strip()


def atoms_of(out):
    if "not found" in out:
        return []
    if "=" not in out:
        raise NotYet(out)
    text = out.split("=", 1)[1]
    return [a.strip() for a in text.split(",") if a.strip()]


def numbers_of(out):
    return [int(v) for v in re.findall(r"-?\d+", value_of(out).replace("window id #", ""))]


def windows_of(out):
    if "not found" in out:
        return []
    return [int(w, 16) for w in re.findall(r"0x[0-9a-f]+", out)]


class Win:
    def __init__(self, client, wid, title):
        self.client, self.wid, self.title = client, wid, title

    @property
    def id(self):
        return int(self.wid, 16)


class Conformance:
    """What the checks share: the session, a sender, windows and waits."""

    def __init__(self, s):
        self.s = s
        self.xclient = xclient_path()
        self.n = 0
        self.spawned = []
        self.anchor = None
        self.root = None

    # -- X requests, as apps and pagers make them -------------------------

    def send(self, message, window, *values):
        self.s.x_tool(self.xclient, "send", message, window, *[str(v) for v in values])

    def set_prop(self, window, prop, typ, *values):
        self.s.x_tool(self.xclient, "set", window, prop, typ, *[str(v) for v in values])

    def delete_prop(self, window, prop):
        self.s.x_tool(self.xclient, "delete", window, prop)

    def state(self, win, action, *atoms, source=SOURCE_APP):
        names = ["_NET_WM_STATE_" + a for a in atoms] + [0, 0]
        self.send("_NET_WM_STATE", win.wid, action, names[0], names[1], source)

    def activate(self, win, source=SOURCE_PAGER, timestamp=0):
        self.send("_NET_ACTIVE_WINDOW", win.wid, source, timestamp, 0)

    # -- reading ----------------------------------------------------------

    def prop(self, win, name):
        return self.s.xprop(win.wid, name)

    def root_prop(self, name):
        return self.s.x_tool(tool("xprop"), "-root", name).stdout.strip()

    def states(self, win):
        return set(a.replace("_NET_WM_STATE_", "") for a in
                   atoms_of(self.prop(win, "_NET_WM_STATE")))

    def info(self, win):
        w = self.s.window_by(title=win.title)
        if w is None:
            raise NotYet("%s is not listed" % win.title)
        return w

    # -- windows ----------------------------------------------------------

    def window(self, name, *args, focused=None):
        """Maps an oriel-test-xclient window; returns it once oriel lists it
        (and, with focused given, once it has or has not the focus)."""
        self.n += 1
        title = "%s-%d" % (name, self.n)
        client, wid = spawn(self.s, title, *args)
        win = Win(client, wid, title)
        self.spawned.append(win)
        where = None if focused is None else (lambda w: w["focused"] == focused)
        self.s.wait_window(title=title, kind="x11", where=where,
                           what="%s mapped%s" % (title, "" if focused is None else
                                                 (", focused" if focused else
                                                  ", not focused")))
        return win

    def close(self, *wins):
        for win in wins:
            if win.client.alive():
                win.client.kill()
        for win in wins:
            self.s.wait_no_window(title=win.title)
            if win in self.spawned:
                self.spawned.remove(win)

    def close_all(self):
        self.close(*list(self.spawned))

    # -- waits ------------------------------------------------------------

    def wait(self, predicate, what):
        return self.s.wait_for(predicate, what=what)

    def until(self, get, ok, what):
        """Waits until ok(get()); the last value goes into the failure."""
        def check():
            value = get()
            if not ok(value):
                raise NotYet(repr(value))
            return True
        self.wait(check, what)

    def wait_states(self, win, present=(), absent=(), what=""):
        def check():
            got = self.states(win)
            if not set(present) <= got or got & set(absent):
                raise NotYet("_NET_WM_STATE is %s" % sorted(got))
            return True
        self.wait(check, "%s: _NET_WM_STATE of %s with %s, without %s" % (
            what, win.title, list(present), list(absent)))

    def wait_prop(self, win, name, parse, expected, what):
        def check():
            got = parse(self.prop(win, name) if win else self.root_prop(name))
            if got != expected:
                raise NotYet("%s is %r" % (name, got))
            return True
        self.wait(check, "%s: %s to be %r" % (what, name, expected))

    def wait_window(self, win, where, what):
        return self.s.wait_window(title=win.title, where=where, what=what)

    def wait_geometry(self, win, expected, what):
        return self.wait_window(win, lambda w: geometry(w) == tuple(expected),
                                "%s at %r" % (what, tuple(expected)))

    def x_agrees(self, win):
        """xwininfo (the app's own view) says what oriel says."""
        def check():
            info = self.s.xwininfo(win.wid)
            got = (info["x"], info["y"], info["width"], info["height"])
            want = geometry(self.info(win))
            if got != want:
                raise NotYet("xwininfo %r, orielctl %r" % (got, want))
            return True
        self.wait(check, "xwininfo of %s to agree with orielctl" % win.title)

    def barrier(self):
        """Returns once oriel handled every client message sent before: it
        answers a _NET_REQUEST_FRAME_EXTENTS sent after them, in order."""
        self.delete_prop(self.anchor.wid, "_NET_FRAME_EXTENTS")
        self.send("_NET_REQUEST_FRAME_EXTENTS", self.anchor.wid)
        self.wait_prop(self.anchor, "_NET_FRAME_EXTENTS", numbers_of, EXTENTS,
                       "the barrier's answer")

    def focus_anchor(self):
        self.activate(self.anchor)
        self.s.wait_window(title=self.anchor.title, where=lambda w: w["focused"],
                           what="the anchor focused")

    # -- pixels -----------------------------------------------------------

    def share(self, rect, rgb, tolerance=2):
        img = self.s.screenshot(region=rect)
        return img.count_colour((0, 0, rect[2], rect[3]), rgb, tolerance) / float(
            rect[2] * rect[3])

    def wait_share(self, rect, rgb, low, high, what):
        def check():
            got = self.share(rect, rgb)
            if not low <= got <= high:
                raise NotYet("%.0f%% of %r is #%s" % (got * 100, rect, rgb_hex(rgb)))
            return True
        self.wait(check, what)

    def title_bar_rect(self, w):
        return (w["x"] + 2, w["y"] - TITLE + 2, w["width"] - 4, 4)

    def wait_title_bar(self, win, shown, what):
        def check():
            w = self.info(win)
            if w["y"] < TITLE:
                if shown:
                    raise NotYet("no room above %s" % win.title)
                return True  # nothing above: no title bar
            rect = self.title_bar_rect(w)
            got = sum(self.share(rect, rgb) for rgb in TITLE_COLOURS + (ATTENTION,))
            if shown != (got > 0.6):
                raise NotYet("title bar colours on %.0f%% of %r" % (got * 100, rect))
            return True
        self.wait(check, what)

    def allowed_actions(self, win):
        return set(a.replace("_NET_WM_ACTION_", "") for a in
                   atoms_of(self.prop(win, "_NET_WM_ALLOWED_ACTIONS")))

    def workarea(self):
        return numbers_of(self.root_prop("_NET_WORKAREA"))

    def fills(self, w, area):
        try:
            harness.fills_area(w, area)
            return True
        except NotYet:
            return False


# ---------------------------------------------------------------------------
# The root window and the desktop

def check_supported(c):
    atoms = atoms_of(c.root_prop("_NET_SUPPORTED"))
    expect(len(atoms) == len(set(atoms)), "_NET_SUPPORTED repeats atoms: %r" % atoms)
    bad = [a for a in atoms if not re.fullmatch(r"_NET_[A-Z_]+", a)]
    expect(not bad, "_NET_SUPPORTED holds non-EWMH atoms: %r" % bad)
    expect("_NET_SUPPORTED" in atoms, "_NET_SUPPORTED does not list itself")


def check_supporting_wm_check(c):
    out = c.root_prop("_NET_SUPPORTING_WM_CHECK")
    m = re.search(r"window id # (0x[0-9a-f]+)", out)
    expect(m, "root _NET_SUPPORTING_WM_CHECK: %s" % out)
    own = c.s.xprop(m.group(1), "_NET_SUPPORTING_WM_CHECK")
    expect(m.group(1) in own, "the check window does not name itself: %s" % own)
    name = c.s.xprop(m.group(1), "_NET_WM_NAME")
    expect('"oriel"' in name, "the check window's _NET_WM_NAME: %s" % name)
    wmctrl = c.s.x_tool(tool("wmctrl"), "-m").stdout
    expect("Name: oriel" in wmctrl, "wmctrl -m: %r" % wmctrl)


def check_wm_name(c):
    # The WM's name is checked with _NET_SUPPORTING_WM_CHECK; here an app's
    # UTF-8 title wins over its legacy WM_NAME, and follows changes.
    win = c.window("name", "--wm-name", "legacy title")
    expect_eq(c.info(win)["title"], win.title, "title from _NET_WM_NAME")
    c.set_prop(win.wid, "_NET_WM_NAME", "UTF8_STRING", "Grüße ✓ ünïcode")
    c.s.wait_window(title="Grüße ✓ ünïcode", kind="x11",
                    what="the window retitled through _NET_WM_NAME (UTF-8)")
    win.title = "Grüße ✓ ünïcode"
    c.close(win)


def check_number_of_desktops(c):
    c.wait_prop(None, "_NET_NUMBER_OF_DESKTOPS", numbers_of, [1], "one desktop")
    # A pager asks for four: oriel has one desktop and keeps it.
    c.send("_NET_NUMBER_OF_DESKTOPS", c.root, 4)
    c.barrier()
    expect_eq(numbers_of(c.root_prop("_NET_NUMBER_OF_DESKTOPS")), [1],
              "_NET_NUMBER_OF_DESKTOPS after a pager asked for 4")
    desktops = c.s.x_tool(tool("wmctrl"), "-d").stdout.splitlines()
    expect_eq(len(desktops), 1, "wmctrl -d lines: %r" % desktops)


def check_current_desktop(c):
    c.wait_prop(None, "_NET_CURRENT_DESKTOP", numbers_of, [0], "desktop 0")
    c.send("_NET_CURRENT_DESKTOP", c.root, 0, 0)
    c.send("_NET_CURRENT_DESKTOP", c.root, 3, 0)
    c.barrier()
    expect_eq(numbers_of(c.root_prop("_NET_CURRENT_DESKTOP")), [0],
              "_NET_CURRENT_DESKTOP after a switch to a desktop that does not exist")
    expect(c.s.window_by(title=c.anchor.title) is not None, "the anchor went away")


def check_desktop_geometry(c):
    c.wait_prop(None, "_NET_DESKTOP_GEOMETRY", numbers_of, [W, H],
                "the desktop is the output")
    c.send("_NET_DESKTOP_GEOMETRY", c.root, 2 * W, 2 * H)
    c.barrier()
    expect_eq(numbers_of(c.root_prop("_NET_DESKTOP_GEOMETRY")), [W, H],
              "_NET_DESKTOP_GEOMETRY after a pager asked for a larger one")


def check_desktop_viewport(c):
    c.wait_prop(None, "_NET_DESKTOP_VIEWPORT", numbers_of, [0, 0], "viewport")
    before = geometry(c.info(c.anchor))
    c.send("_NET_DESKTOP_VIEWPORT", c.root, 200, 100)
    c.barrier()
    expect_eq(numbers_of(c.root_prop("_NET_DESKTOP_VIEWPORT")), [0, 0],
              "_NET_DESKTOP_VIEWPORT after a pager asked to scroll")
    expect_eq(geometry(c.info(c.anchor)), before, "the anchor after the viewport request")


def check_workarea(c):
    c.wait_prop(None, "_NET_WORKAREA", numbers_of, [0, 0, W, H], "the whole output")
    win = c.window("workarea")
    c.state(win, ADD, "MAXIMIZED_VERT", "MAXIMIZED_HORZ")
    c.wait_window(win, lambda w: w["maximized"] and c.fills(w, tuple(c.workarea())),
                  "a maximized window's frame fills _NET_WORKAREA")
    c.close(win)


def check_wm_desktop(c):
    win = c.window("desktop")
    c.wait_prop(win, "_NET_WM_DESKTOP", numbers_of, [0], "a new window on desktop 0")
    c.send("_NET_WM_DESKTOP", win.wid, ALL_DESKTOPS, SOURCE_PAGER)
    c.wait_prop(win, "_NET_WM_DESKTOP", numbers_of, [ALL_DESKTOPS], "on all desktops")
    c.wait_states(win, present=("STICKY",), what="all desktops is sticky")
    c.send("_NET_WM_DESKTOP", win.wid, 0, SOURCE_PAGER)
    c.wait_prop(win, "_NET_WM_DESKTOP", numbers_of, [0], "back on desktop 0")
    c.wait_states(win, absent=("STICKY",), what="desktop 0 is not sticky")
    c.close(win)


# ---------------------------------------------------------------------------
# Window states

def check_wm_state(c):
    # Asked for before mapping: the window maps maximized.
    win = c.window("state", "--state", "MAXIMIZED_VERT,MAXIMIZED_HORZ")
    c.wait_window(win, lambda w: w["maximized"] and c.fills(w, (0, 0, W, H)),
                  "a window asking to start maximized maps maximized")
    c.wait_states(win, present=("MAXIMIZED_VERT", "MAXIMIZED_HORZ"), what="at map")
    c.x_agrees(win)
    # Toggle both at once (data.l[1] and data.l[2]).
    c.state(win, TOGGLE, "MAXIMIZED_VERT", "MAXIMIZED_HORZ")
    c.wait_window(win, lambda w: not w["maximized"] and
                  (w["width"], w["height"]) == (200, 150), "toggled back to 200x150")
    c.wait_states(win, absent=("MAXIMIZED_VERT", "MAXIMIZED_HORZ"), what="toggled off")
    c.x_agrees(win)
    c.close(win)


def check_state_focused(c):
    a = c.window("focus-a", "--position", "400,100", focused=True)
    c.wait_states(a, present=("FOCUSED",), what="the focused window")
    c.wait_states(c.anchor, absent=("FOCUSED",), what="the anchor, not focused")
    c.focus_anchor()
    c.wait_states(c.anchor, present=("FOCUSED",), what="the anchor focused again")
    c.wait_states(a, absent=("FOCUSED",), what="the other one lost focus")
    c.close(a)


def check_state_modal(c):
    parent = c.window("parent", "--colour", "2040a0", "--position", "300,200",
                      "--size", "400x300")
    child = c.window("modal", "--colour", "e0c020", "--transient-for", parent.wid,
                     "--size", "160x100", "--type", "DIALOG")
    c.state(child, ADD, "MODAL")
    c.wait_states(child, present=("MODAL",), what="MODAL added")
    # A click on the parent: the modal dialog stays over it, on screen.
    p = c.info(parent)
    c.s.click(p["x"] + 10, p["y"] + 10)
    cw = c.info(child)
    inner = (cw["x"] + 10, cw["y"] + 10, cw["width"] - 20, cw["height"] - 20)
    c.wait_share(inner, (0xe0, 0xc0, 0x20), 0.99, 1.0,
                 "the modal dialog over its clicked parent")
    c.state(child, REMOVE, "MODAL")
    c.wait_states(child, absent=("MODAL",), what="MODAL removed")
    c.close(child, parent)


def check_state_fullscreen(c):
    colour = (0x20, 0xa0, 0x90)
    win = c.window("fullscreen", "--colour", rgb_hex(colour), "--position", "100,100",
                   "--size", "300x200")
    before = geometry(c.info(win))
    c.state(win, ADD, "FULLSCREEN")
    c.wait_geometry(win, (0, 0, W, H), "fullscreen over the output")
    c.wait_states(win, present=("FULLSCREEN",), what="fullscreen")
    c.x_agrees(win)
    exclude = c.s.park_pointer()
    c.s.wait_colour((0, 0, W, H), colour, exclude=exclude,
                    what="the whole output shows the fullscreen window")
    c.state(win, REMOVE, "FULLSCREEN")
    c.wait_geometry(win, before, "back from fullscreen")
    c.wait_states(win, absent=("FULLSCREEN",), what="not fullscreen")
    c.close(win)


OTHER_AXIS = {"VERT": "HORZ", "HORZ": "VERT"}


def spans(c, w, axis, before):
    """Whether w is maximized on axis alone: its frame spans the work area
    that way, and the other way it keeps before's position and size."""
    ax, ay, aw, ah = c.workarea()
    x, y, width, height = geometry(w)
    bx, by, bw, bh = before
    if w["maximized"]:
        return False
    if axis == "VERT":
        return ((x, width) == (bx, bw) and y == ay + TITLE + BORDER and
                y + height == ay + ah - BORDER)
    return ((y, height) == (by, bh) and x == ax + BORDER and
            x + width == ax + aw - BORDER)


def wait_axis(c, win, axis, before, what):
    """win maximized on axis alone, in orielctl, X and _NET_WM_STATE."""
    c.wait_window(win, lambda w: spans(c, w, axis, before),
                  "%s: %s maximized on %s alone, %r kept the other way" % (
                      what, win.title, axis, before))
    c.wait_states(win, present=("MAXIMIZED_" + axis,),
                  absent=("MAXIMIZED_" + OTHER_AXIS[axis],), what=what)
    c.x_agrees(win)


def check_maximized_axis(c, axis):
    """One axis alone maximizes that way only (as wmctrl and openbox do):
    the frame spans the work area on that axis, the other keeps its place
    and size. The other axis added makes it maximized; either removed
    leaves the other; both removed restore it. A window asking for the
    axis before mapping maps so."""
    other = OTHER_AXIS[axis]
    both = ("MAXIMIZED_" + axis, "MAXIMIZED_" + other)
    win = c.window("max-" + axis.lower(), "--position", "200,150", "--size", "300x200")
    before = geometry(c.info(win))
    c.state(win, ADD, both[0])
    wait_axis(c, win, axis, before, "%s added" % both[0])
    c.state(win, ADD, both[1])
    c.wait_window(win, lambda w: w["maximized"] and c.fills(w, tuple(c.workarea())),
                  "maximized over the work area with both axes")
    c.wait_states(win, present=both, what="maximized")
    c.state(win, REMOVE, both[0])
    wait_axis(c, win, other, before, "%s removed from both" % both[0])
    c.state(win, TOGGLE, both[1])
    c.wait_geometry(win, before, "restored when %s is toggled off too" % both[1])
    c.wait_states(win, absent=both, what="restored")
    c.x_agrees(win)
    c.close(win)

    win = c.window("max-start-" + axis.lower(), "--state", both[0],
                   "--position", "200,150", "--size", "300x200")
    wait_axis(c, win, axis, before, "asked for before mapping")
    c.close(win)


def check_state_hidden(c):
    colour = (0xc0, 0x30, 0x90)
    win = c.window("hidden", "--colour", rgb_hex(colour), "--position", "600,300",
                   "--size", "200x150", focused=True)
    rect = geometry(c.info(win))
    c.s.park_pointer()
    c.wait_share(rect, colour, 0.99, 1.0, "the window on screen")
    # ICCCM's way to iconify (EWMH: HIDDEN is the WM's to set).
    c.send("WM_CHANGE_STATE", win.wid, 3)
    c.wait_window(win, lambda w: w["minimized"] and not w["focused"], "minimized")
    c.wait_states(win, present=("HIDDEN",), what="iconified")
    c.wait_share(rect, colour, 0.0, 0.0, "the hidden window gone from the screen")
    wm_state = c.prop(win, "WM_STATE")
    expect("Iconic" in wm_state, "WM_STATE of a hidden window: %s" % wm_state)
    c.activate(win)
    c.wait_window(win, lambda w: not w["minimized"] and w["focused"],
                  "restored and focused by a pager's activation")
    c.wait_states(win, absent=("HIDDEN",), what="restored")
    c.wait_share(rect, colour, 0.99, 1.0, "the restored window on screen")
    c.close(win)


def check_state_demands_attention(c):
    win = c.window("attention", "--position", "500,200", "--size", "250x120")
    c.focus_anchor()
    c.state(win, ADD, "DEMANDS_ATTENTION")
    c.wait_states(win, present=("DEMANDS_ATTENTION",), what="attention asked")
    c.wait_share(c.title_bar_rect(c.info(win)), ATTENTION, 0.6, 1.0,
                 "an orange title bar")
    expect(c.info(c.anchor)["focused"], "asking for attention stole the focus")
    c.activate(win)
    c.wait_window(win, lambda w: w["focused"], "activated")
    c.wait_states(win, absent=("DEMANDS_ATTENTION",), what="attention ends on activation")
    c.close(win)


def overlap_pair(c, name):
    red = c.window(name + "-red", "--colour", "ff0000", "--position", "100,100",
                   "--size", "300x200", focused=True)
    green = c.window(name + "-green", "--colour", "00ff00", "--position", "250,200",
                     "--size", "300x200", focused=True)
    r, g = geometry(c.info(red)), geometry(c.info(green))
    spot = (g[0] + 10, g[1] + 10, r[0] + r[2] - g[0] - 20, r[1] + r[3] - g[1] - 20)
    return red, green, spot


def stacking(c):
    return windows_of(c.root_prop("_NET_CLIENT_LIST_STACKING"))


def wait_stacked(c, lower, upper, what):
    def check():
        order = stacking(c)
        if lower.id not in order or upper.id not in order or \
                order.index(lower.id) > order.index(upper.id):
            raise NotYet("stacking %r" % [hex(w) for w in order])
        return True
    c.wait(check, "%s: %s under %s in _NET_CLIENT_LIST_STACKING" % (
        what, lower.title, upper.title))


def check_state_above(c):
    red, green, spot = overlap_pair(c, "above")
    c.state(red, ADD, "ABOVE")
    c.wait_states(red, present=("ABOVE",), what="ABOVE added")
    c.s.click(spot[0] + spot[2] + 60, spot[1] + spot[3] + 60)  # green only
    c.wait_window(green, lambda w: w["focused"], "green focused by a click")
    c.wait_share(spot, (255, 0, 0), 0.99, 1.0, "red ABOVE focused green")
    wait_stacked(c, green, red, "ABOVE")
    c.close(red, green)


def check_state_below(c):
    red, green, spot = overlap_pair(c, "below")
    c.state(green, ADD, "BELOW")
    c.wait_states(green, present=("BELOW",), what="BELOW added")
    c.wait_share(spot, (255, 0, 0), 0.99, 1.0, "green BELOW red")
    c.s.click(spot[0] + spot[2] + 60, spot[1] + spot[3] + 60)
    c.wait_window(green, lambda w: w["focused"], "green focused by a click")
    c.wait_share(spot, (255, 0, 0), 0.99, 1.0, "focused green still BELOW red")
    wait_stacked(c, green, red, "BELOW")
    c.close(red, green)


def check_state_sticky(c):
    win = c.window("sticky")
    c.state(win, ADD, "STICKY")
    c.wait_states(win, present=("STICKY",), what="STICKY added")
    c.wait_prop(win, "_NET_WM_DESKTOP", numbers_of, [ALL_DESKTOPS],
                "a sticky window is on all desktops")
    c.state(win, REMOVE, "STICKY")
    c.wait_prop(win, "_NET_WM_DESKTOP", numbers_of, [0], "not sticky any more")
    c.close(win)


def quick_alt_tab(c):
    c.s.key_sym("Alt_L", "press")
    c.s.key_sym("Tab")
    c.s.key_sym("Alt_L", "release")


def check_state_skip_taskbar(c):
    a = c.window("skip-a", "--position", "100,400", focused=True)
    b = c.window("skip-b", "--position", "500,400", focused=True)
    quick_alt_tab(c)
    c.wait_window(a, lambda w: w["focused"], "Alt+Tab goes to the window before")
    quick_alt_tab(c)
    c.wait_window(b, lambda w: w["focused"], "and back")
    c.state(a, ADD, "SKIP_TASKBAR")
    c.wait_states(a, present=("SKIP_TASKBAR",), what="SKIP_TASKBAR added")
    quick_alt_tab(c)
    c.s.wait_window(where=lambda w: w["focused"] and w["title"] != b.title,
                    what="Alt+Tab leaves the window")
    expect(not c.info(a)["focused"], "Alt+Tab went to a window that skips the taskbar")
    c.close(a, b)


def check_state_skip_pager(c):
    win = c.window("skip-pager", "--state", "SKIP_PAGER")
    c.wait_states(win, present=("SKIP_PAGER",), what="asked for at map")
    c.focus_anchor()  # wlroots' XWM rewrites the property on focus changes
    c.wait_states(win, present=("SKIP_PAGER",), what="kept across a focus change")
    c.state(win, REMOVE, "SKIP_PAGER")
    c.wait_states(win, absent=("SKIP_PAGER",), what="removed")
    c.close(win)


# ---------------------------------------------------------------------------
# Requests and window properties

def check_active_window(c):
    back = c.window("active-back", "--colour", "3060c0", "--position", "100,100",
                    "--size", "300x200", focused=True)
    front = c.window("active-front", "--colour", "30a050", "--position", "150,150",
                     "--size", "300x200", "--user-time", 100000, focused=True)
    c.wait_prop(None, "_NET_ACTIVE_WINDOW", windows_of, [front.id], "the focused window")
    # An app's request older than the user's last input: attention, no focus.
    c.activate(back, SOURCE_APP, 50)
    c.wait_states(back, present=("DEMANDS_ATTENTION",), what="an old request")
    expect(c.info(front)["focused"], "an old app request stole the focus")
    # A pager's request: focused and raised.
    c.activate(back, SOURCE_PAGER)
    c.wait_window(back, lambda w: w["focused"], "a pager's request focuses")
    c.wait_prop(None, "_NET_ACTIVE_WINDOW", windows_of, [back.id], "follows")
    c.wait_share((160, 160, 230, 130), (0x30, 0x60, 0xc0), 0.99, 1.0,
                 "the activated window raised over the other")
    c.close(back, front)


def check_user_time(c):
    back = c.window("time-back", "--position", "100,400", "--size", "200x100",
                    focused=True)
    front = c.window("time-front", "--position", "500,400", "--size", "200x100",
                     "--user-time", 5000, focused=True)
    c.activate(back, SOURCE_APP, 4000)
    c.wait_states(back, present=("DEMANDS_ATTENTION",), what="older than the user time")
    expect(c.info(front)["focused"], "a request older than _NET_WM_USER_TIME focused")
    c.activate(back, SOURCE_APP, 6000)
    c.wait_window(back, lambda w: w["focused"], "a request newer than the user time")
    # The app updates its user time as the user types in it.
    c.set_prop(back.wid, "_NET_WM_USER_TIME", "CARDINAL", 9000)
    c.activate(front, SOURCE_APP, 8000)
    c.wait_states(front, present=("DEMANDS_ATTENTION",), what="older than the new time")
    expect(c.info(back)["focused"], "a request older than the updated time focused")
    c.close(back, front)


def check_wm_moveresize(c):
    win = c.window("moveresize", "--position", "300,200", "--size", "250x180")
    x, y, width, height = geometry(c.info(win))
    c.s.pointer_move(x + 50, y + 50)
    c.s.orielctl("pointer", "button", "left", "press", json=False)
    try:
        c.send("_NET_WM_MOVERESIZE", win.wid, x + 50, y + 50, 8, 1, SOURCE_APP)
        c.s.pointer_move(x + 110, y + 90)
        c.wait_geometry(win, (x + 60, y + 40, width, height), "moved with the pointer")
        c.send("_NET_WM_MOVERESIZE", win.wid, x + 110, y + 90, 11, 1, SOURCE_APP)
        c.barrier()
        c.s.pointer_move(x + 200, y + 200)
        c.s.windows()
        expect_eq(geometry(c.info(win)), (x + 60, y + 40, width, height),
                  "geometry after _NET_WM_MOVERESIZE_CANCEL and more motion")
    finally:
        c.s.orielctl("pointer", "button", "left", "release", json=False)
    c.x_agrees(win)
    c.close(win)


def check_moveresize_window(c):
    win = c.window("mrw", "--position", "50,60", "--size", "200x100")
    # flags: gravity | x, y, width, height given (bits 8-11) | source (12-13)
    c.send("_NET_MOVERESIZE_WINDOW", win.wid, 0x1f01, 100, 150, 320, 180)
    c.wait_geometry(win, (101, 175, 320, 180), "NorthWest: the frame's corner at 100,150")
    c.send("_NET_MOVERESIZE_WINDOW", win.wid, 0x130a, 300, 200, 0, 0)
    c.wait_geometry(win, (300, 200, 320, 180), "Static: the content at 300,200")
    c.send("_NET_MOVERESIZE_WINDOW", win.wid, 0x2401, 0, 0, 250, 0)
    c.wait_geometry(win, (300, 200, 250, 180), "a pager changes the width only")
    c.x_agrees(win)
    c.close(win)


def check_close_window(c):
    win = c.window("close")
    c.send("_NET_CLOSE_WINDOW", win.wid, 0, SOURCE_PAGER)
    win.client.wait()
    expect("delete-window" in win.client.log(), "no WM_DELETE_WINDOW: %s" %
           win.client.log())
    c.close(win)


def check_request_frame_extents(c):
    for args, extents in ((("--type", "NORMAL"), EXTENTS), (("--type", "SPLASH"),
                                                             NO_EXTENTS)):
        c.n += 1
        title = "extents-%d" % c.n
        client, wid = spawn(c.s, title, "--request-extents", *args)
        win = Win(client, wid, title)
        c.spawned.append(win)
        line = "frame-extents %s" % " ".join(str(v) for v in extents)
        c.until(client.log, lambda log: line in log,
                "%s answered before mapping with %s" % (args[1], line))
        c.s.wait_window(title=title)
        c.close(win)


def check_frame_extents(c):
    win = c.window("extents", "--position", "200,200")
    c.wait_prop(win, "_NET_FRAME_EXTENTS", numbers_of, EXTENTS, "a decorated window")
    c.wait_title_bar(win, True, "a title bar as tall as the top extent")
    # Just above the frame: not the title bar any more.
    w = c.info(win)
    above = (w["x"] + 2, w["y"] - TITLE - BORDER - 3, w["width"] - 4, 2)
    got = sum(c.share(above, rgb) for rgb in TITLE_COLOURS)
    expect(got < 0.05, "title bar colours above the top extent: %.0f%%" % (got * 100))
    menu = c.window("extents-menu", "--type", "MENU", "--position", "500,300")
    c.wait_prop(menu, "_NET_FRAME_EXTENTS", numbers_of, NO_EXTENTS, "a menu")
    c.wait_title_bar(menu, False, "no title bar on a menu")
    c.close(win, menu)


def check_allowed_actions(c):
    win = c.window("actions")
    c.until(lambda: c.allowed_actions(win), lambda a: a == set(ALL_ACTIONS),
            "a normal window allows %r" % (ALL_ACTIONS,))
    fixed = c.window("fixed", "--size", "200x150", "--min-size", "200x150",
                     "--max-size", "200x150")
    c.until(lambda: c.allowed_actions(fixed), lambda a: a == set(ALL_ACTIONS) - {
        "RESIZE", "MAXIMIZE_HORZ", "MAXIMIZE_VERT"},
        "a fixed-size window is not resizable nor maximizable")
    c.close(win, fixed)


def check_client_list(c):
    a = c.window("list-a")
    b = c.window("list-b")

    def listed():
        order = windows_of(c.root_prop("_NET_CLIENT_LIST"))
        if c.anchor.id not in order or a.id not in order or b.id not in order:
            raise NotYet("_NET_CLIENT_LIST %r" % [hex(w) for w in order])
        expect(order.index(c.anchor.id) < order.index(a.id) < order.index(b.id),
               "_NET_CLIENT_LIST not in mapping order: %r" % [hex(w) for w in order])
        return True
    c.wait(listed, "the managed windows in _NET_CLIENT_LIST")
    c.close(a)
    c.until(lambda: windows_of(c.root_prop("_NET_CLIENT_LIST")),
            lambda order: a.id not in order, "a closed window leaves the list")
    expect(b.id in windows_of(c.root_prop("_NET_CLIENT_LIST")), "b left the list")
    c.close(b)


def check_client_list_stacking(c):
    red, green, spot = overlap_pair(c, "stack")
    wait_stacked(c, red, green, "green mapped last")
    r = c.info(red)
    c.s.click(r["x"] + 10, r["y"] + 10)
    c.wait_window(red, lambda w: w["focused"], "red clicked")
    c.wait_share(spot, (255, 0, 0), 0.99, 1.0, "red raised over green")
    wait_stacked(c, green, red, "red raised")
    c.close(red, green)


def check_strut(c):
    dock = c.window("strut", "--type", "DOCK", "--position", "0,%d" % (H - 40),
                    "--size", "%dx40" % W)
    c.wait_prop(None, "_NET_WORKAREA", numbers_of, [0, 0, W, H], "no strut yet")
    c.set_prop(dock.wid, "_NET_WM_STRUT", "CARDINAL", 0, 0, 0, 40)
    c.wait_prop(None, "_NET_WORKAREA", numbers_of, [0, 0, W, H - 40],
                "the bottom 40 rows reserved")
    win = c.window("strut-max")
    c.state(win, ADD, "MAXIMIZED_VERT", "MAXIMIZED_HORZ")
    c.wait_window(win, lambda w: w["maximized"] and c.fills(w, (0, 0, W, H - 40)),
                  "a maximized window leaves the strut free")
    c.delete_prop(dock.wid, "_NET_WM_STRUT")
    c.wait_prop(None, "_NET_WORKAREA", numbers_of, [0, 0, W, H], "strut removed")
    c.wait_window(win, lambda w: c.fills(w, (0, 0, W, H)), "maximized over it again")
    c.close(win, dock)


def check_strut_partial(c):
    dock = c.window("strut-partial", "--type", "DOCK", "--position", "0,0",
                    "--size", "60x%d" % H,
                    "--strut-partial", "60,0,0,0,0,%d,0,0,0,0,0,0" % (H - 1))
    c.wait_prop(None, "_NET_WORKAREA", numbers_of, [60, 0, W - 60, H],
                "the left 60 columns reserved")
    # _NET_WM_STRUT_PARTIAL wins over _NET_WM_STRUT.
    c.set_prop(dock.wid, "_NET_WM_STRUT", "CARDINAL", 100, 0, 0, 0)
    c.barrier()
    c.wait_prop(None, "_NET_WORKAREA", numbers_of, [60, 0, W - 60, H],
                "the partial strut wins")
    c.close(dock)
    c.wait_prop(None, "_NET_WORKAREA", numbers_of, [0, 0, W, H], "dock gone")


def check_window_type(c):
    # The first type oriel knows wins; unknown ones are skipped.
    win = c.window("type", "--type", "_KDE_OVERRIDE,SPLASH,DIALOG", "--size", "200x100")
    c.wait_prop(win, "_NET_FRAME_EXTENTS", numbers_of, NO_EXTENTS,
                "the first known type (SPLASH) decides")
    c.close(win)


def check_ping(c):
    win = c.window("ping", "--ping", "--ignore-delete", "--pid")
    c.s.orielctl("close", c.info(win)["id"], json=False)
    c.until(win.client.log, lambda log: "ping" in log.split(), "a ping with the close")
    expect("delete-window" in win.client.log(), win.client.log())
    c.barrier()
    expect_eq(c.info(win)["title"], win.title, "the title of a window that answered")
    c.close(win)


def check_sync_request(c):
    """Two resizes by a pager, one right after the other (the drag is in
    test_xwm_sync_request.py): each new size reaches the client after a sync
    request, and only once the client drew the size before and answered."""
    start = (240, 160)
    win = c.window("sync", "--sync-request", "answer", "--position", "300,200",
                   "--size", "%dx%d" % start)
    sizes = [(300, 200), (340, 230)]
    for size in sizes:
        c.send("_NET_MOVERESIZE_WINDOW", win.wid, 0x2c00, 0, 0, *size)

    def answered():
        events = sync_events(win.client)
        sets = [e for e in events if e[0] == "set"]
        if not sets or sets[-1][2] != sizes[-1]:
            raise NotYet("client log: %r" % (events,))
        return events
    check_sync_protocol(c.wait(answered, "the client to draw and answer %r" %
                               (sizes[-1],)), start)
    c.wait_window(win, lambda w: (w["width"], w["height"]) == sizes[-1], "resized")
    c.x_agrees(win)
    c.close(win)


def check_pid(c):
    win = c.window("pid", "--pid")
    expect_eq(c.info(win)["pid"], win.client.pid, "the pid oriel lists")


def check_icon(c):
    colour, changed = (0x11, 0xee, 0x77), (0xee, 0x22, 0x66)
    win = c.window("icon", "--position", "200,300", "--size", "300x200",
                   "--icon", rgb_hex(colour))

    def icon_rect():
        w = c.info(win)
        return (w["x"] + ICON_MARGIN, w["y"] - TITLE + (TITLE - ICON_SIZE) // 2,
                ICON_SIZE, ICON_SIZE)
    c.until(lambda: c.share(icon_rect(), colour), lambda v: v == 1.0,
            "the 16x16 icon in the title bar")
    argb = 0xff000000 | (changed[0] << 16) | (changed[1] << 8) | changed[2]
    c.set_prop(win.wid, "_NET_WM_ICON", "CARDINAL", 2, 2, argb, argb, argb, argb)
    c.until(lambda: c.share(icon_rect(), changed), lambda v: v == 1.0,
            "the changed icon")
    c.close(win)


# ---------------------------------------------------------------------------
# Window types: decoration, placement, focus on map, layer

TYPE_POLICY = {
    # type: (decorated, focused on map, placement)
    "NORMAL": (True, True, "default"),
    "TOOLBAR": (True, True, "default"),
    "DIALOG": (True, True, "center"),
    "UTILITY": (True, True, "center"),
    "SPLASH": (False, False, "center"),
    "NOTIFICATION": (False, False, "corner"),
    "DOCK": (False, False, "requested"),
    "DESKTOP": (False, False, "requested"),
    "MENU": (False, True, "requested"),
    "POPUP_MENU": (False, True, "requested"),
    "DROPDOWN_MENU": (False, True, "requested"),
    "TOOLTIP": (False, True, "requested"),
    "COMBO": (False, True, "requested"),
}


def check_type(c, kind):
    decorated, focus, placement = TYPE_POLICY[kind]
    c.focus_anchor()
    size, where = (240, 160), (330, 270)
    if kind == "DESKTOP":
        size, where = (W, H), (0, 0)  # icons over the whole screen
    args = ["--type", kind, "--size", "%dx%d" % size, "--colour", "d0d0d0"]
    if placement != "center" and placement != "corner":
        args += ["--position", "%d,%d" % where]
    win = c.window("type-" + kind.lower(), *args, focused=focus)
    c.wait_prop(win, "_NET_FRAME_EXTENTS", numbers_of,
                EXTENTS if decorated else NO_EXTENTS,
                "%s %s" % (kind, "decorated" if decorated else "undecorated"))
    c.wait_title_bar(win, decorated, "%s's title bar" % kind)
    x, y, width, height = geometry(c.info(win))
    expect_eq((width, height), size, "%s's size" % kind)
    if placement == "requested":
        expect_eq((x, y), where, "%s where it asked" % kind)
    elif placement == "default":
        expect_eq((x, y), (331, 295), "%s's frame corner where it asked" % kind)
    elif placement == "center":
        top = TITLE + BORDER if decorated else 0
        frame_h = height + (top + BORDER if decorated else 0)
        ex, ey = (W - width) // 2, (H - frame_h) // 2 + top
        expect(abs(x - ex) <= 1 and abs(y - ey) <= 1,
               "%s centered: at %d,%d, expected %d,%d" % (kind, x, y, ex, ey))
    elif placement == "corner":
        expect_eq((x + width, y), (W, 0), "%s's top-right corner" % kind)
    if kind == "DESKTOP":
        # Under everything: the anchor stays visible over it.
        c.s.park_pointer()
        a = geometry(c.info(c.anchor))
        c.wait_share((a[0] + 5, a[1] + 5, a[2] - 10, a[3] - 10), ANCHOR, 0.99, 1.0,
                     "the anchor over the desktop window")
    if kind == "DOCK":
        # Over normal windows: one moved onto the dock does not cover it.
        c.focus_anchor()
        c.send("_NET_MOVERESIZE_WINDOW", c.anchor.wid, 0x1f0a, 300, 250, 300, 200)
        try:
            c.wait_geometry(c.anchor, (300, 250, 300, 200), "the anchor over the dock")
            c.s.park_pointer()
            c.wait_share((335, 275, 200, 140), (0xd0, 0xd0, 0xd0), 0.99, 1.0,
                         "the dock stays over a normal window")
        finally:
            c.send("_NET_MOVERESIZE_WINDOW", c.anchor.wid, 0x1f0a, 40, 60, 300, 200)
        c.wait_geometry(c.anchor, (40, 60, 300, 200), "the anchor back")
    c.close(win)


# ---------------------------------------------------------------------------
# Actions: allowed on a normal window, and the request works

def action_check(name, effect):
    def check(c):
        win = c.window("action-" + name.lower(), "--position", "200,200",
                       "--size", "240x160")
        c.until(lambda: c.allowed_actions(win), lambda a: name in a,
                "%s in _NET_WM_ALLOWED_ACTIONS" % name)
        effect(c, win)
        c.close(win)
    return check


def act_move(c, win):
    c.send("_NET_MOVERESIZE_WINDOW", win.wid, 0x130a, 420, 330, 0, 0)
    c.wait_window(win, lambda w: (w["x"], w["y"]) == (420, 330), "moved")


def act_resize(c, win):
    c.send("_NET_MOVERESIZE_WINDOW", win.wid, 0x1c00, 0, 0, 310, 190)
    c.wait_window(win, lambda w: (w["width"], w["height"]) == (310, 190), "resized")
    c.x_agrees(win)


def act_minimize(c, win):
    c.send("WM_CHANGE_STATE", win.wid, 3)
    c.wait_window(win, lambda w: w["minimized"], "minimized")


def act_maximize(axis):
    def act(c, win):
        before = geometry(c.info(win))
        c.state(win, ADD, "MAXIMIZED_" + axis)
        wait_axis(c, win, axis, before, "MAXIMIZED_%s alone" % axis)
    return act


def act_fullscreen(c, win):
    c.state(win, ADD, "FULLSCREEN")
    c.wait_window(win, lambda w: w["fullscreen"] and geometry(w) == (0, 0, W, H),
                  "fullscreen")


def act_close(c, win):
    c.send("_NET_CLOSE_WINDOW", win.wid, 0, SOURCE_PAGER)
    win.client.wait()
    expect("delete-window" in win.client.log(), win.client.log())


# ---------------------------------------------------------------------------

CHECKS = {
    "_NET_SUPPORTED": check_supported,
    "_NET_SUPPORTING_WM_CHECK": check_supporting_wm_check,
    "_NET_WM_NAME": check_wm_name,
    "_NET_NUMBER_OF_DESKTOPS": check_number_of_desktops,
    "_NET_CURRENT_DESKTOP": check_current_desktop,
    "_NET_DESKTOP_GEOMETRY": check_desktop_geometry,
    "_NET_DESKTOP_VIEWPORT": check_desktop_viewport,
    "_NET_WORKAREA": check_workarea,
    "_NET_WM_DESKTOP": check_wm_desktop,
    "_NET_WM_STATE": check_wm_state,
    "_NET_ACTIVE_WINDOW": check_active_window,
    "_NET_WM_MOVERESIZE": check_wm_moveresize,
    "_NET_WM_STATE_FOCUSED": check_state_focused,
    "_NET_WM_STATE_MODAL": check_state_modal,
    "_NET_WM_STATE_FULLSCREEN": check_state_fullscreen,
    "_NET_WM_STATE_MAXIMIZED_VERT": lambda c: check_maximized_axis(c, "VERT"),
    "_NET_WM_STATE_MAXIMIZED_HORZ": lambda c: check_maximized_axis(c, "HORZ"),
    "_NET_WM_STATE_HIDDEN": check_state_hidden,
    "_NET_CLIENT_LIST": check_client_list,
    "_NET_CLIENT_LIST_STACKING": check_client_list_stacking,
    "_NET_MOVERESIZE_WINDOW": check_moveresize_window,
    "_NET_CLOSE_WINDOW": check_close_window,
    "_NET_REQUEST_FRAME_EXTENTS": check_request_frame_extents,
    "_NET_FRAME_EXTENTS": check_frame_extents,
    "_NET_WM_ALLOWED_ACTIONS": check_allowed_actions,
    "_NET_WM_USER_TIME": check_user_time,
    "_NET_WM_STATE_DEMANDS_ATTENTION": check_state_demands_attention,
    "_NET_WM_STATE_ABOVE": check_state_above,
    "_NET_WM_STATE_BELOW": check_state_below,
    "_NET_WM_STATE_STICKY": check_state_sticky,
    "_NET_WM_STATE_SKIP_TASKBAR": check_state_skip_taskbar,
    "_NET_WM_STATE_SKIP_PAGER": check_state_skip_pager,
    "_NET_WM_STRUT": check_strut,
    "_NET_WM_STRUT_PARTIAL": check_strut_partial,
    "_NET_WM_WINDOW_TYPE": check_window_type,
    "_NET_WM_PING": check_ping,
    "_NET_WM_PID": check_pid,
    "_NET_WM_ICON": check_icon,
    "_NET_WM_SYNC_REQUEST": check_sync_request,
}
for _kind in TYPE_POLICY:
    CHECKS["_NET_WM_WINDOW_TYPE_" + _kind] = (lambda k: lambda c: check_type(c, k))(_kind)
for _name, _effect in (("MOVE", act_move), ("RESIZE", act_resize),
                       ("MINIMIZE", act_minimize),
                       ("MAXIMIZE_HORZ", act_maximize("HORZ")),
                       ("MAXIMIZE_VERT", act_maximize("VERT")),
                       ("FULLSCREEN", act_fullscreen), ("CLOSE", act_close)):
    CHECKS["_NET_WM_ACTION_" + _name] = action_check(_name, _effect)


# ---------------------------------------------------------------------------
# ICCCM features no other test covers

def icccm_motif_no_decorations(c):
    win = c.window("motif", "--motif-decorations", 0, "--position", "300,300")
    c.wait_prop(win, "_NET_FRAME_EXTENTS", numbers_of, NO_EXTENTS,
                "_MOTIF_WM_HINTS decorations 0: undecorated")
    c.wait_title_bar(win, False, "no title bar with _MOTIF_WM_HINTS decorations 0")
    c.close(win)


def icccm_min_max_size(c):
    win = c.window("minmax", "--size", "200x150", "--min-size", "150x100",
                   "--max-size", "300x200")
    c.send("_NET_MOVERESIZE_WINDOW", win.wid, 0x1c00, 0, 0, 500, 400)
    c.wait_window(win, lambda w: (w["width"], w["height"]) == (300, 200),
                  "a request over the max size gets the max size")
    c.send("_NET_MOVERESIZE_WINDOW", win.wid, 0x1c00, 0, 0, 50, 40)
    c.wait_window(win, lambda w: (w["width"], w["height"]) == (150, 100),
                  "a request under the min size gets the min size")
    c.x_agrees(win)
    c.close(win)


ICCCM_CHECKS = {
    "_MOTIF_WM_HINTS decorations": icccm_motif_no_decorations,
    "WM_NORMAL_HINTS min/max size": icccm_min_max_size,
}


def run_check(c, name, check):
    """Runs one check; returns None when it passed, else why not."""
    harness.log("check %s" % name)
    try:
        check(c)
        return None
    except (TestFailure, NotYet) as e:
        return str(e)
    except Exception:
        return traceback.format_exc()
    finally:
        try:
            c.s.orielctl("pointer", "button", "left", "release", json=False, check=False)
            c.close_all()
        except TestFailure as e:
            harness.log("cleanup after %s: %s" % (name, e))


def main():
    with Session(outputs=["%dx%d" % (W, H)]) as s:
        c = Conformance(s)
        c.root = re.search(r"Window id: (0x[0-9a-f]+)", s.x_tool(
            tool("xwininfo"), "-root").stdout).group(1)
        c.anchor = c.window("anchor", "--colour", rgb_hex(ANCHOR), "--position", "40,60",
                            "--size", "300x200", focused=True)
        c.spawned.remove(c.anchor)
        supported = c.wait(lambda: atoms_of(c.root_prop("_NET_SUPPORTED")),
                           "_NET_SUPPORTED")
        harness.log("_NET_SUPPORTED: %d atoms" % len(supported))
        failures = []
        unchecked = [a for a in supported if a not in CHECKS]
        for atom in unchecked:
            failures.append("%s is advertised but has no check" % atom)
        for atom in supported:
            if atom in CHECKS:
                why = run_check(c, atom, CHECKS[atom])
                if why:
                    failures.append("%s: %s" % (atom, why))
        for atom, check in CHECKS.items():
            if atom not in supported:
                why = run_check(c, atom, check)
                if why is None:
                    failures.append("%s works but is not in _NET_SUPPORTED" % atom)
                else:
                    harness.log("%s, not advertised, does not work: %s" % (atom, why))
        for name, check in ICCCM_CHECKS.items():
            why = run_check(c, name, check)
            if why:
                failures.append("%s: %s" % (name, why))
        s.check_alive()
        expect(not failures, "%d of %d checks failed:\n  %s" % (
            len(failures), len(supported) + len(ICCCM_CHECKS), "\n  ".join(failures)))


if __name__ == "__main__":
    harness.run(main)
