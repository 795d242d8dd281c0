# SPDX-License-Identifier: MIT
"""Firefox ESR as a Wayland client of an oriel session, with a fresh
profile and its WebDriver BiDi remote agent on a loopback port:

    with WaylandFirefox(s, base_url + "/screenshare.html") as ff:
        page = ff.page()                  # bidi.Page
        page.evaluate("startShare()")

The profile's user.js (below) is a kiosk profile's: no first-run pages,
no network chatter, and getDisplayMedia without Firefox's own prompt,
so that the request goes straight to the portal, whose backend answers
from its policy (see ../shared/notes/browser-screen-share.md).
"""
import json
import re
from pathlib import Path

import bidi

PREFS = {
    # No first-run, welcome, default-browser or "what's new" pages.
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False,
    "startup.homepage_welcome_url": "",
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "toolkit.telemetry.enabled": False,
    "app.update.disabledForTesting": True,
    "browser.sessionstore.resume_from_crash": False,
    "browser.tabs.warnOnClose": False,
    # No experiments or studies fetched from Mozilla's servers.
    "app.normandy.enabled": False,
    "messaging-system.rsexperimentloader.enabled": False,
    "network.captive-portal-service.enabled": False,
    # Skips Firefox's sharing prompt (its source chooser) for
    # getDisplayMedia too: the first source, the portal's, is taken.
    "media.navigator.permission.disabled": True,
    # Screen capture through the ScreenCast portal and PipeWire.
    "media.webrtc.capture.allow-pipewire": True,
    "widget.use-xdg-desktop-portal.file-picker": 0,
    # The sharing indicator is a window of its own; keep the screen still.
    "privacy.webrtc.hideGlobalIndicator": True,
    "privacy.webrtc.legacyGlobalIndicator": False,
}

# A Wayland client of the session; no DISPLAY, so nothing falls back to X.
SESSION_ENV = {"MOZ_ENABLE_WAYLAND": "1", "XDG_SESSION_TYPE": "wayland",
               "XDG_CURRENT_DESKTOP": "oriel", "DISPLAY": None,
               "MOZ_CRASHREPORTER_DISABLE": "1"}

_LISTENING = re.compile(r"WebDriver BiDi listening on (ws://[^\s]+)")


def _user_js(prefs):
    return "".join("user_pref(%s, %s);\n" % (json.dumps(k), json.dumps(v))
                   for k, v in prefs.items())


class WaylandFirefox:
    def __init__(self, session, url, firefox="firefox-esr", timeout=60):
        self.session = session
        self.url = url
        self.firefox = firefox
        self.timeout = timeout
        self.profile = Path(session.tmp) / ("firefox-%d" % next(session._counter))

    def __enter__(self):
        self.profile.mkdir()
        (self.profile / "user.js").write_text(_user_js(PREFS))
        argv = [self.firefox, "--no-remote", "--new-instance", "--profile",
                str(self.profile), "--remote-debugging-port=0", self.url]
        self.client = self.session.spawn(argv, name="firefox", env=SESSION_ENV)
        self.ws_url = self.session.wait_for(self._bidi_url, self.timeout,
                                            "Firefox's WebDriver BiDi endpoint")
        return self

    def __exit__(self, *exc):
        self.client.kill()
        return False

    def _bidi_url(self):
        from harness import NotYet, TestFailure
        if not self.client.alive():
            raise TestFailure("firefox exited with %s; log:\n%s" % (
                self.client.proc.returncode, self.client.log()[-3000:]))
        m = _LISTENING.search(self.client.log())
        if not m:
            raise NotYet("no WebDriver BiDi endpoint yet")
        return m.group(1).rstrip("/") + "/session"

    def page(self):
        return bidi.Page(self.ws_url)
