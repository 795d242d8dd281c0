#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""In a real browser, only oriel's own page opens a WebSocket to it.

Headless Chromium, driven over the DevTools protocol (tests/browser/cdp.py),
runs the same script on three pages, a WebSocket to oriel's VNC port:

- from oriel's own page, http://127.0.0.1:PORT/vnc.html (noVNC's), it
  opens: Chromium sends Origin http://127.0.0.1:PORT and Host
  127.0.0.1:PORT, which oriel takes;
- from another site's page (http://127.0.0.1:OTHER, a server of the test)
  it fails, and oriel's log says that origin was refused;
- DNS rebinding, with Chromium's resolver mapping attacker.example to
  127.0.0.1: the page http://attacker.example:PORT/vnc.html shows oriel's
  421 answer instead of noVNC, and a WebSocket to attacker.example:PORT,
  from the page the attacker's name serves, fails too.
"""
import functools
import http.server
import socketserver
import sys
import tempfile
import threading
from pathlib import Path

import harness
import vnc
from harness import NotYet, REPO, Session, expect, expect_eq, tool

sys.path.insert(0, str(REPO / "tests" / "browser"))
import cdp  # noqa: E402

# Resolves to "open" or "closed CODE" (1006 when the upgrade was refused).
CONNECT = ("new Promise(resolve => { const ws = new WebSocket('ws://%s/websockify',"
           " ['binary']); ws.onopen = () => { resolve('open'); ws.close(); };"
           " ws.onclose = e => resolve('closed ' + e.code); })")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def navigate(s, page, url, what):
    page.call("Page.navigate", url=url)

    def loaded():
        state = page.evaluate("location.href + ' ' + document.readyState")
        if state != url + " complete":
            raise NotYet("page state %s" % state)
        return True
    s.wait_for(loaded, 30, what)


def wait_log(s, words, what):
    def logged():
        for line in s.log_text().splitlines():
            if all(w in line for w in words):
                return line
        raise NotYet("no log line with %r" % (words,))
    return s.wait_for(logged, 10, what)


def main():
    novnc = Path("/usr/share/novnc/vnc.html")
    expect(novnc.exists(), "noVNC is not installed (Debian's novnc)")
    port = vnc.free_port()
    with tempfile.TemporaryDirectory(prefix="oriel-evil-") as d:
        Path(d, "evil.html").write_text("<!doctype html><title>another site</title>\n")
        handler = functools.partial(_Quiet, directory=d)
        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        other = "http://127.0.0.1:%d" % server.server_address[1]
        try:
            with Session(outputs=["640x480"], xwayland="off", args=vnc.vnc_args(port)) as s:
                vnc.wait_listening(s, vnc.tcp(port))
                own = "127.0.0.1:%d" % port
                flags = ["--host-resolver-rules=MAP attacker.example 127.0.0.1"]
                with cdp.Chromium(s, "http://%s/vnc.html" % own, chromium=tool("chromium"),
                                  flags=flags) as chrome:
                    page = chrome.page()
                    navigate(s, page, "http://%s/vnc.html" % own, "oriel's own page")
                    expect_eq(page.evaluate(CONNECT % own), "open",
                              "a WebSocket from oriel's own page")

                    navigate(s, page, other + "/evil.html", "another site's page")
                    expect_eq(page.evaluate(CONNECT % own), "closed 1006",
                              "a WebSocket from another site's page")
                    wait_log(s, ["closing the connection from 127.0.0.1",
                                 "a WebSocket from the page %s, not this server's own"
                                 % other], "the refusal of the other site in the log")

                    rebound = "attacker.example:%d" % port
                    navigate(s, page, "http://%s/vnc.html" % rebound,
                             "oriel's port under the attacker's name")
                    body = page.evaluate("document.body.innerText")
                    expect("421 Misdirected Request" in body and "attacker.example" in body,
                           "the page under the attacker's name shows %r" % body[:300])
                    expect_eq(page.evaluate(CONNECT % rebound), "closed 1006",
                              "a WebSocket under the attacker's name")
                    wait_log(s, ["closing the connection from 127.0.0.1",
                                 "Host header names attacker.example"],
                             "the refusal of the attacker's name in the log")
                    page.close()
                s.check_alive()
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    harness.run(main)
