# SPDX-License-Identifier: MIT
"""Screen sharing in Chromium as a Wayland client of oriel (not headless:
getDisplayMedia goes through the portal only with the Wayland ozone
platform), and a loopback HTTP server for the test pages in this folder.

    with serve() as base_url, WaylandChromium(s, base_url + "/screenshare.html") as c:
        page = c.page()
        page.evaluate("startShare()")

Flags per ../shared/notes/browser-screen-share.md: --use-fake-ui-for-media-stream
skips Chromium's own picker so that the request reaches the portal, whose
backend answers from its policy. --no-sandbox because tests run as root.
"""
import contextlib
import functools
import http.server
import socketserver
import threading
from pathlib import Path

import cdp

HERE = Path(__file__).resolve().parent

WAYLAND_FLAGS = [
    "--ozone-platform=wayland", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--no-default-browser-check", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--password-store=basic",
    "--use-fake-ui-for-media-stream", "--enable-features=WebRTCPipeWireCapturer", "--remote-debugging-port=0",
    "--window-size=720,540",
]


# What oriel exports to its session command. WebRTC picks its PipeWire
# capturer (the portal) only when XDG_SESSION_TYPE is wayland; otherwise
# it tries X11 capture. No DISPLAY, so nothing falls back to X.
SESSION_ENV = {"XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "oriel",
               "DISPLAY": None}


class WaylandChromium(cdp.Chromium):
    """cdp.Chromium, but a windowed Wayland client of the session."""

    def __enter__(self):
        self.profile.mkdir()
        argv = [self.chromium] + WAYLAND_FLAGS + [
            "--user-data-dir=%s" % self.profile, self.url]
        self.client = self.session.spawn(argv, name="chromium",
                                         env=SESSION_ENV)
        self.port = self.session.wait_for(self._devtools_port, self.timeout,
                                          "Chromium's DevTools port")
        return self


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(directory=HERE):
    """An HTTP server for directory on 127.0.0.1 (a secure context for
    getDisplayMedia); yields its base URL."""
    handler = functools.partial(_Quiet, directory=str(directory))
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield "http://127.0.0.1:%d" % server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
