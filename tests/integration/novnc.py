# SPDX-License-Identifier: MIT
"""noVNC's page in a browser driven over CDP (tests/browser/cdp.py), used as a
person would: its state, its credentials dialog, clicks in its canvas and
keys typed into it."""
import json

from harness import NotYet

CANVAS = "document.querySelector('#noVNC_container canvas')"


def state(page):
    return page.evaluate(
        "({connected: !!document.documentElement &&"
        " document.documentElement.classList.contains('noVNC_connected'),"
        " dialog: !!document.querySelector('#noVNC_credentials_dlg.noVNC_open'),"
        " status: (document.getElementById('noVNC_status') || {}).textContent || ''})")


def wait_state(waiter, page, check, what, timeout):
    """noVNC's state once check(state) holds, polled with waiter.wait_for."""
    def ready():
        st = state(page)
        if not st or not check(st):
            raise NotYet("noVNC state %s" % json.dumps(st))
        return st
    return waiter.wait_for(ready, timeout, what)


def send_credentials(page, user, password):
    page.evaluate(
        "(() => { document.getElementById('noVNC_username_input').value = %s;"
        " document.getElementById('noVNC_password_input').value = %s;"
        " document.getElementById('noVNC_credentials_button').click(); })()"
        % (json.dumps(user), json.dumps(password)))


def click(page, x, y):
    """A click at framebuffer (x, y), through the page like a mouse."""
    rect = page.evaluate("(() => { const r = %s.getBoundingClientRect();"
                         " return [r.left, r.top]; })()" % CANVAS)
    px, py = rect[0] + x, rect[1] + y
    page.call("Input.dispatchMouseEvent", type="mouseMoved", x=px, y=py)
    for kind in ("mousePressed", "mouseReleased"):
        page.call("Input.dispatchMouseEvent", type=kind, x=px, y=py, button="left",
                  clickCount=1)


def type_text(page, text):
    """Key events as a keyboard sends them: key, code and text, then Enter."""
    for ch in text:
        if ch == " ":
            key, code, vk = " ", "Space", 32
        else:
            key, code, vk = ch, "Key" + ch.upper(), ord(ch.upper())
        page.call("Input.dispatchKeyEvent", type="keyDown", key=key, code=code, text=ch,
                  windowsVirtualKeyCode=vk)
        page.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code,
                  windowsVirtualKeyCode=vk)
    page.call("Input.dispatchKeyEvent", type="keyDown", key="Enter", code="Enter",
              text="\r", windowsVirtualKeyCode=13)
    page.call("Input.dispatchKeyEvent", type="keyUp", key="Enter", code="Enter",
              windowsVirtualKeyCode=13)
