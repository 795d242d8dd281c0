#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The app zoo, Xt/Athena family: xterm, xclock, xeyes, xmessage, xcalc
and xedit, as a person uses them.

Each app maps with a title bar, is raised and takes the focus when
clicked (xclock and xeyes, whose WM_HINTS refuse input, are only raised) and, on
`orielctl close`, gets WM_DELETE_WINDOW and exits by itself (status 0, no
X I/O error). xterm's Ctrl+click menu, an override-redirect window, shows
on screen exactly where xterm placed it in X (xwininfo): where it hangs
below the xterm, its colours fill that rectangle and stop at its edges.
"""

import harness
from harness import NotYet, Session, expect, tool
import zoo

XTERM_BG = (0x20, 0x40, 0x60)


def xterm_menu(s, xterm):
    """Ctrl+left press opens xterm's main menu where the pointer is."""
    before = zoo.top_level_ids(s)
    x, y = xterm["x"] + 200, xterm["y"] + 40
    s.pointer_move(x, y)
    s.key_sym("Control_L", "press")
    s.orielctl("pointer", "button", "left", "press", json=False)
    try:
        wid, menu = s.wait_for(lambda: zoo.new_override_redirect(s, before),
                               what="xterm's menu mapped")
        rect = (menu["x"], menu["y"], menu["width"], menu["height"])

        def on_screen():
            # The menu is drawn in xterm's colours; where it hangs below the
            # xterm (over the black root and xcalc) only the menu has them.
            img = s.screenshot()
            top = xterm["y"] + xterm["height"] + 10
            bottom = rect[1] + rect[3] - 3
            expect(bottom - top > 20, "the menu %r does not reach below the xterm" % (rect,))

            def share(box):
                return img.count_colour(box, XTERM_BG, 8) / float(box[2] * box[3])
            inside = share((rect[0] + 3, top, rect[2] - 6, bottom - top))
            left = share((rect[0] - 6, top, 3, bottom - top))
            right = share((rect[0] + rect[2] + 3, top, 3, bottom - top))
            below = share((rect[0] + 3, rect[1] + rect[3] + 3, rect[2] - 6, 3))
            if inside < 0.6 or max(left, right, below) > 0.1:
                raise NotYet("menu %r in xterm's colour: %.0f%% inside, %.0f%% left, "
                             "%.0f%% right, %.0f%% below it" % (
                                 rect, inside * 100, left * 100, right * 100, below * 100))
            return True
        s.wait_for(on_screen, what="xterm's menu on screen where X put it")
    finally:
        # Released away from the menu: nothing is chosen.
        s.pointer_move(xterm["x"] + xterm["width"] - 5, xterm["y"] + xterm["height"] - 5)
        s.orielctl("pointer", "button", "left", "release", json=False)
        s.key_sym("Control_L", "release")

    def menu_gone():
        if s.xwininfo(int(wid, 16))["map_state"] == "IsViewable":
            raise NotYet("xterm's menu is still shown")
        return True
    s.wait_for(menu_gone, what="xterm's menu gone")


def main():
    with Session(outputs=["1280x720"]) as s:
        apps = [
            ("XTerm", [tool("xterm"), "-bg", "#204060", "-fg", "white",
                       "-geometry", "60x15+40+60"]),
            ("XClock", [tool("xclock"), "-geometry", "160x160+600+60"]),
            ("XEyes", [tool("xeyes"), "-geometry", "160x120+800+60"]),
            ("Xmessage", [tool("xmessage"), "-geometry", "+600+320",
                          "-buttons", "okay:0", "hello from xmessage"]),
            ("XCalc", [tool("xcalc"), "-geometry", "+40+360"]),
            ("Xedit", [tool("xedit"), "-geometry", "420x300+800+340"]),
        ]
        running = []
        for app_id, argv in apps:
            client = s.spawn_x(argv, name=app_id.lower())
            win = zoo.app_window(s, app_id, what="%s mapped" % app_id)
            zoo.wait_decorated(s, win)
            running.append((app_id, client, win))

        for app_id, client, win in running:
            win = s.window_by(id=win["id"])
            # xmessage is mostly its button: click the message text.
            at = (win["x"] + 10, win["y"] + 10) if app_id == "Xmessage" else None
            zoo.click_focuses(s, win, s.wait_x_window(app_id), at)

        xterm = s.window_by(app_id="XTerm")
        xterm_menu(s, xterm)
        zoo.click_focuses(s, xterm, s.wait_x_window("XTerm"))

        for app_id, client, win in running:
            wid = s.wait_x_window(app_id)
            zoo.closes_politely(s, client, s.window_by(id=win["id"]), wid,
                                status=1 if app_id == "Xmessage" else 0)
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
