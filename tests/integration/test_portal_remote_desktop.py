#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The RemoteDesktop portal end to end, through the real frontend
(/usr/libexec/xdg-desktop-portal 1.16) and a scripted client of the public
org.freedesktop.portal.RemoteDesktop API (portal_client.py, one bus
connection): CreateSession, SelectDevices (keyboard and pointer),
ScreenCast.SelectSources on the same session, Start. pipewire and
wireplumber run, since the session casts the output too; no frames are
consumed.

- Start answers devices = keyboard|pointer and one monitor stream with the
  output's size; oriel lists the cast.
- NotifyPointerMotionAbsolute (relative to the stream) and
  NotifyPointerButton click the visible part of the lower of two
  overlapping colour windows: it is raised and focused, and the overlap
  shows its colour. NotifyPointerMotion moves from there to the other
  window, whose click raises it back.
- A click focuses xterm, whose shell reads a line into a file;
  NotifyKeyboardKeysym types "hello ", NotifyKeyboardKeycode holds Shift
  around the W key, keysyms type "orld@|" (Shift-level characters) and
  Return: the file holds "hello World@|".
- NotifyPointerAxisDiscrete and NotifyPointerAxis over xev give wheel
  button presses 5 (down) and 4 (up).
- Closing the session stops its cast; a Shift the session still held is
  released (typing "a" afterwards gives "a", not "A").
- With the [remote-desktop] policy denying, Start answers 1 and no cast is
  made.
- With "ask", oriel's prompt lists the output; Return allows, and Start
  answers the devices and the stream. A client that goes while the prompt
  is up has its Start cancelled; the backend goes on, and the prompt goes
  when the backend leaves the bus.
"""
import json
import re
import shlex

import harness
import pipewire
import portal
import prompt
from harness import NotYet, Session, TestFailure, expect, expect_eq, tool, T

A = (0xd0, 0x20, 0x40)
B = (0x30, 0x50, 0xe0)
A_POS, B_POS, SIZE = (20, 20), (180, 120), (300, 200)
ALLOW = "[remote-desktop]\ndefault = deny\nallow-unidentified = true\n"
DENY = "[remote-desktop]\ndefault = deny\n[screencast]\nallow = *\n"
ASK = "[remote-desktop]\ndefault = ask\n"
BTN_LEFT = 272
KEY_LEFTSHIFT, KEY_W = 42, 17
XK_RETURN = 0xff0d
TYPED = "hello World@|"


def cast_ids(s):
    return [c["id"] for c in json.loads(s.orielctl("cast", "list", "--json", json=False))]


def on_top_and_focused(s, wid):
    def check():
        wins = s.windows()
        if not wins or wins[-1]["id"] != wid or not wins[-1]["focused"]:
            raise NotYet("stacking (bottom first): %s" % harness.brief_windows(wins))
        return True
    return check


def click(rd, node, x, y):
    rd.notify("NotifyPointerMotionAbsolute", "udd", node, float(x), float(y))
    rd.notify("NotifyPointerButton", "iu", BTN_LEFT, 1)
    rd.notify("NotifyPointerButton", "iu", BTN_LEFT, 0)


def type_keysyms(rd, text):
    for ch in text:
        rd.notify("NotifyKeyboardKeysym", "iu", ord(ch), 1)
        rd.notify("NotifyKeyboardKeysym", "iu", ord(ch), 0)


def xterm_reading(s, out, pos, title):
    script = 'read l; printf "%%s\\n" "$l" > %s.tmp && mv %s.tmp %s' % (
        shlex.quote(str(out)), shlex.quote(str(out)), shlex.quote(str(out)))
    xterm = s.spawn_x([tool("xterm"), "-u8", "-geometry", "40x6+%d+%d" % pos,
                       "-title", title, "-e", "sh", "-c", script])
    win = s.wait_window(title=title, kind="x11",
                        where=lambda w: w["width"] > 0 and w["height"] > 0)
    return xterm, win


def read_line(s, out, xterm):
    def written():
        if not out.exists():
            if not xterm.alive():
                raise TestFailure("xterm exited without writing %s" % out)
            raise NotYet("%s not written yet" % out)
        return out.read_text(encoding="utf-8", errors="replace")
    return s.wait_for(written, what="xterm's shell to read the typed line")


def focus_x(s, rd, node, win, title):
    click(rd, node, win["x"] + win["width"] // 2, win["y"] + win["height"] // 2)
    s.wait_window(id=win["id"], where=lambda w: w["focused"],
                  what="%s to be focused after the portal's click" % title)
    wid = s.wait_x_window("XTerm")

    def x_focus():
        res = s.x_tool(tool("xdotool"), "getwindowfocus", check=False)
        if res.stdout.strip() not in [str(w) for w in s.x_search(cls="XTerm")]:
            raise NotYet("X focus is %r, xterm is %d" % (res.stdout.strip(), wid))
        return True
    s.wait_for(x_focus, what="X input focus on %s" % title)


def main():
    with Session(outputs=["1024x768"]) as s:
        s.park_pointer()
        pipewire.start(s)
        out = s.output()
        a, wa = s.colour_window_at(A, SIZE, A_POS, "A", "org.oriel.test.a")
        b, wb = s.colour_window_at(B, SIZE, B_POS, "B", "org.oriel.test.b")
        overlap = harness.intersect(A_POS + SIZE, B_POS + SIZE)
        probe = (overlap[0] + 40, overlap[1] + 40, overlap[2] - 80, overlap[3] - 80)
        only_a = (A_POS[0] + 50, A_POS[1] + 50)
        only_b = (B_POS[0] + SIZE[0] - 50, B_POS[1] + SIZE[1] - 50)
        s.wait_for(on_top_and_focused(s, wb["id"]), what="B on top to begin with")
        s.wait_colour(probe, B)

        p = portal.start(s, policy=ALLOW)
        rd = portal.RemoteClient(s, "--with-screencast")
        streams = rd.wait_ready()
        expect_eq(rd.step("Start")["results"].get("devices"), 3, "devices (keyboard|pointer)")
        expect_eq(len(streams), 1, "streams of the remote desktop session")
        node, props = streams[0]
        expect_eq(tuple(props.get("size", ())), (out["width"], out["height"]), "stream size")
        expect_eq(cast_ids(s) != [], True, "oriel lists the session's cast")

        # Absolute motion (stream-relative) and a click raise the lower window.
        click(rd, node, *only_a)
        s.wait_for(on_top_and_focused(s, wa["id"]), what="A raised by the portal's click")
        s.wait_colour(probe, A, what="the overlap to show A")
        # Relative motion from there to B's own part, and a click.
        rd.notify("NotifyPointerMotion", "dd", float(only_b[0] - only_a[0]),
                  float(only_b[1] - only_a[1]))
        rd.notify("NotifyPointerButton", "iu", BTN_LEFT, 1)
        rd.notify("NotifyPointerButton", "iu", BTN_LEFT, 0)
        s.wait_for(on_top_and_focused(s, wb["id"]), what="B raised after relative motion")
        s.wait_colour(probe, B, what="the overlap to show B again")

        # Typing into xterm: keysyms, and a keycode Shift held around a keycode.
        typed = s.tmp / "typed.txt"
        xterm, wx = xterm_reading(s, typed, (560, 40), "portal typing")
        focus_x(s, rd, node, wx, "xterm")
        type_keysyms(rd, "hello ")
        rd.notify("NotifyKeyboardKeycode", "iu", KEY_LEFTSHIFT, 1)
        rd.notify("NotifyKeyboardKeycode", "iu", KEY_W, 1)
        rd.notify("NotifyKeyboardKeycode", "iu", KEY_W, 0)
        rd.notify("NotifyKeyboardKeycode", "iu", KEY_LEFTSHIFT, 0)
        type_keysyms(rd, "orld@|")
        rd.notify("NotifyKeyboardKeysym", "iu", XK_RETURN, 1)
        rd.notify("NotifyKeyboardKeysym", "iu", XK_RETURN, 0)
        expect_eq(read_line(s, typed, xterm), TYPED + "\n", "the line typed through the portal")

        # Scrolling over xev: wheel buttons 5 (down) and 4 (up).
        xev = s.spawn_x([tool("xev"), "-event", "button", "-geometry", "200x150+600+450",
                         "-name", "portal-xev"])
        wv = s.wait_window(title="portal-xev", kind="x11",
                           where=lambda w: w["width"] > 0 and w["height"] > 0)
        rd.notify("NotifyPointerMotionAbsolute", "udd", node,
                  float(wv["x"] + wv["width"] // 2), float(wv["y"] + wv["height"] // 2))

        def buttons():
            return re.findall(r"ButtonPress event.*?button (\d+)", xev.log(), re.S)

        def wheel(n4, n5):
            def check():
                got = buttons()
                if got.count("4") < n4 or got.count("5") < n5:
                    raise NotYet("xev saw button presses %r" % got)
                return got
            return check
        rd.notify("NotifyPointerAxisDiscrete", "ui", 0, 2)
        s.wait_for(wheel(0, 2), what="two wheel-down presses in xev")
        rd.notify("NotifyPointerAxisDiscrete", "ui", 0, -1)
        s.wait_for(wheel(1, 2), what="a wheel-up press in xev")
        rd.notify("NotifyPointerAxis", "dd", 0.0, -10.0)
        s.wait_for(wheel(2, 2), what="smooth scrolling up in xev")

        # A Shift left held is released when the session closes.
        typed2 = s.tmp / "typed2.txt"
        xterm2, wx2 = xterm_reading(s, typed2, (560, 260), "after close")
        focus_x(s, rd, node, wx2, "the second xterm")
        rd.notify("NotifyKeyboardKeycode", "iu", KEY_LEFTSHIFT, 1)
        rd.close()

        def no_casts():
            if cast_ids(s):
                raise NotYet("casts %r" % cast_ids(s))
            return True
        s.wait_for(no_casts, T(10), "the session's cast to stop when it closes")
        s.key_type("a\n")
        expect_eq(read_line(s, typed2, xterm2), "a\n",
                  "typing after the session closed with Shift held")

        # Denied: cancelled, and no cast.
        p.set_policy(DENY)
        rd2 = portal.RemoteClient(s, "--with-screencast")
        st = rd2.wait_step("Start")
        expect_eq((st.get("step"), st.get("response")), ("Start", 1),
                  "Start's response under a deny policy")
        expect(not cast_ids(s), "a denied remote desktop session made a cast")

        # Asked: the prompt lists the output, chosen; Return allows.
        p.set_policy(ASK)
        rd3 = portal.RemoteClient(s, "--with-screencast")
        img = prompt.wait_shown(s, "the prompt for RemoteDesktop Start")
        expect_eq(len(prompt.bands(img, prompt.SELECTED)), 1, "the output's row, chosen")
        expect_eq(prompt.bands(img, prompt.ROW), [], "rows not chosen (one output)")
        s.key_sym("Return")
        streams = rd3.wait_ready()
        expect_eq(rd3.step("Start")["results"].get("devices"), 3, "devices after Allow")
        expect_eq([x[1].get("id") for x in streams], [out["name"]], "streams after Allow")
        prompt.wait_gone(s)
        rd3.close()
        s.wait_for(no_casts, T(10), "the allowed session's cast to stop when it closes")

        # The client goes while the prompt is up: its Start is cancelled.
        rd4 = portal.RemoteClient(s, "--with-screencast")
        prompt.wait_shown(s, "the prompt for a client that goes")
        rd4.client.kill()

        def cancelled():
            if "was up: cancelled" not in p.backend.log():
                raise NotYet("not cancelled yet")
            return True
        s.wait_for(cancelled, T(10), "the backend to cancel the Start")
        expect(not cast_ids(s), "a cancelled remote desktop session made a cast")
        p.check_alive()
        expect_eq(p.stop_backend(), 0, "the backend's exit status on SIGTERM")
        prompt.wait_gone(s, "the prompt to go with the backend")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
