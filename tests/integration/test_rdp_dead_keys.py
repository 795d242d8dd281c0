#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Dead keys and the lock keys through xfreerdp.

- de on both sides: xdotool types dead_acute e, dead_circumflex o and
  dead_grave a into xfreerdp, which sends the keys' scancodes; in the
  session they are dead keys of the de keymap again, and xterm composes
  them (Xlib's compose): the line must read xéôày.
- The same from a de client into a session whose keymap is us (no
  [keyboard]): the client's own layout makes those keys dead keysyms,
  typed on spare keys of the us keymap, and xterm composes them alike.
- us: Caps Lock is turned on in xfreerdp's Xvfb while another window
  there has the focus, so xfreerdp never sends the key; when xfreerdp
  gets the focus back it sends a Synchronize event with its lock state,
  and oriel turns Caps Lock on in the session: typed "abc" arrives as
  "ABC".
"""
import subprocess

import harness
import rdp
import vnc
from harness import Session, expect_eq, tool


def session(layout, type_keys, client_layout=None):
    """type_keys in a session of that layout (None: [keyboard] unset), from
    xfreerdp in an Xvfb of client_layout (the same by default)."""
    port = vnc.free_port()
    client_layout = client_layout or layout
    with Session(outputs=["1024x768"], args=rdp.rdp_args(port),
                 config=_config(layout) if layout else None) as s:
        xterm, win, out = rdp.line_xterm(s)
        rdp.wait_listening(s, port)
        s.park_pointer()
        keymap = None if client_layout == "us" else client_layout
        with rdp.client_in_xvfb(s, port, "typist", "unused", ["/size:1024x768"],
                                keymap=keymap) as (xvfb, client):
            wid = rdp.click_through(s, xvfb, client, win)
            s.wait_x_focus(s.wait_x_window("XTerm"))
            type_keys(s, xvfb, client, wid)
            xvfb.xdotool("key", "Return")
            return s.wait_written(xterm, out)


def _config(layout):
    import tempfile
    from pathlib import Path
    d = Path(tempfile.mkdtemp(prefix="oriel-rdp-dead-"))
    config = d / "oriel.ini"
    config.write_text("[keyboard]\nlayout = %s\n" % layout)
    return config


def dead_keys(s, xvfb, client, wid):
    xvfb.xdotool("key", "--delay", "40", "x", "dead_acute", "e", "dead_circumflex", "o",
                 "dead_grave", "a", "y")


def caps_from_sync(s, xvfb, client, wid):
    other = subprocess.Popen([tool("xev"), "-geometry", "100x100+0+0"], env=xvfb.env(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        other_wid = s.wait_for(lambda: _window_of(xvfb, "Event Tester"),
                               what="a second window in xfreerdp's Xvfb")
        xvfb.xdotool("windowfocus", "--sync", other_wid)
        xvfb.xdotool("key", "Caps_Lock")
        xvfb.xdotool("windowfocus", "--sync", wid)
        xvfb.xdotool("type", "--delay", "40", "abc")
    finally:
        other.kill()
        other.wait()


def _window_of(xvfb, name):
    r = subprocess.run([tool("xdotool"), "search", "--onlyvisible", "--name", name],
                       env=xvfb.env(), capture_output=True, text=True, timeout=harness.T(15))
    wids = r.stdout.split()
    if not wids:
        raise harness.NotYet("no window yet")
    return wids[-1]


def main():
    expect_eq(session("de", dead_keys), "x\u00e9\u00f4\u00e0y\n",
              "dead keys typed through xfreerdp (de) into xterm (de)")
    expect_eq(session(None, dead_keys, client_layout="de"), "x\u00e9\u00f4\u00e0y\n",
              "dead keys typed through xfreerdp (de) into a session of keymap us")
    expect_eq(session(None, caps_from_sync, client_layout="us"), "ABC\n",
              "letters typed after xfreerdp synchronised Caps Lock")


if __name__ == "__main__":
    harness.run(main)
