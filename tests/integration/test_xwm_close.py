#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Close: WM_DELETE_WINDOW when the client supports it, else kill it.

- xterm lists WM_DELETE_WINDOW: `orielctl close` makes it exit by itself,
  with no X I/O error in its log (a killed client gets one);
- oriel-test-xclient with the protocol gets the message ("delete-window");
- oriel-test-xclient --no-delete (WM_PROTOCOLS without it; every x11-apps
  program lists it) is killed: the server closes its connection;
- _NET_CLOSE_WINDOW, sent to the root as a pager would, closes a window too.
"""
import re

import harness
from harness import Session, expect, tool
from xclient import spawn, xclient_path

def main():
    with Session(outputs=["1024x768"]) as s:
        xterm = s.spawn_x([tool("xterm"), "-title", "graceful"])
        win = s.wait_window(title="graceful", kind="x11")
        wid = s.wait_x_window("XTerm")
        expect("WM_DELETE_WINDOW" in s.xprop(wid, "WM_PROTOCOLS"),
               "xterm does not list WM_DELETE_WINDOW")
        s.orielctl("close", win["id"], json=False)
        xterm.wait()
        s.wait_no_window(title="graceful")
        expect(not re.search(r"I/?O error|connection to .* broken", xterm.log(), re.I),
               "xterm was killed, not asked to close:\n" + xterm.log())

        polite, polite_wid = spawn(s, "polite")
        expect("WM_DELETE_WINDOW" in s.xprop(polite_wid, "WM_PROTOCOLS"), "protocols")
        win = s.wait_window(title="polite", kind="x11")
        s.orielctl("close", win["id"], json=False)
        polite.wait()
        expect("delete-window" in polite.log(), "no WM_DELETE_WINDOW:\n" + polite.log())

        rude, rude_wid = spawn(s, "rude", "--no-delete")
        expect("WM_DELETE_WINDOW" not in s.xprop(rude_wid, "WM_PROTOCOLS"), "protocols")
        win = s.wait_window(title="rude", kind="x11")
        s.orielctl("close", win["id"], json=False)
        rude.wait()
        expect("connection closed" in rude.log() and "delete-window" not in rude.log(),
               "the client without WM_DELETE_WINDOW was not killed:\n" + rude.log())
        s.wait_no_window(title="rude")

        # _NET_CLOSE_WINDOW from a pager (source 2).
        paged, paged_wid = spawn(s, "paged")
        s.wait_window(title="paged", kind="x11")
        s.x_tool(xclient_path(), "send", "_NET_CLOSE_WINDOW", paged_wid, 0, 2)
        paged.wait()
        expect("delete-window" in paged.log(), "_NET_CLOSE_WINDOW:\n" + paged.log())


if __name__ == "__main__":
    harness.run(main)
