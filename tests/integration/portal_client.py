#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A scripted client of the public org.freedesktop.portal.* API, for the
portal suite. It runs with the system Python (/usr/bin/python3), whose
python3-gi gives it Gio: one bus connection for the whole exchange, as the
frontend binds sessions to the connection that created them.

    /usr/bin/python3 portal_client.py [--multiple] [--cursor-mode N] [--types N]
                                      [--persist-mode N] [--restore-token T]
                                      [--close-start-on-usr1]
    /usr/bin/python3 portal_client.py --screenshot [--interactive]
    /usr/bin/python3 portal_client.py --pick-color
    /usr/bin/python3 portal_client.py --remote-desktop [--devices N]
                                      [--with-screencast] --commands FIFO

--screenshot and --pick-color print their step and exit (status 3 when the
response is not 0). --remote-desktop runs CreateSession, SelectDevices,
(ScreenCast.SelectSources on the same session), Start, prints
{"step": "ready"}, then reads JSON commands, one per line, from FIFO:
    {"n": 1, "method": "NotifyKeyboardKeysym", "args": ["iu", [97, 1]]}
calls org.freedesktop.portal.RemoteDesktop.<method>(session, {}, *args)
and prints {"step": "notify", "n": 1} (or with "error").

Prints one JSON object per line on stdout:
    {"step": "CreateSession", "response": 0, "results": {...}}
    {"step": "SelectSources", ...}
    {"step": "Start", "response": 0, "streams": [[node, {...}], ...]}
then holds the session open until SIGTERM, on which it calls
org.freedesktop.portal.Session.Close and prints {"step": "closed"}. A
Session.Closed signal from the portal prints {"step": "session-closed"}.
A response other than 0 prints its step and exits with status 3.

--close-start-on-usr1: once Start's request handle is known the client
prints {"step": "start-pending"}; on SIGUSR1 after that, while Start waits
for its Response, the client calls org.freedesktop.portal.Request.Close on Start's request
handle (as an app does when it gives up, e.g. a closed browser tab),
prints {"step": "Start", "closed": true}, and then holds its connection
until SIGTERM, when it exits. With --screenshot it closes the Screenshot
request the same way, prints {"step": "Screenshot", "closed": true} and
exits.
"""
import argparse
import json
import os
import signal
import sys

from gi.repository import Gio, GLib

DEST = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
IFACE = "org.freedesktop.portal.ScreenCast"
SCREENSHOT = "org.freedesktop.portal.Screenshot"
REMOTE = "org.freedesktop.portal.RemoteDesktop"


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def unpack(v):
    return v.unpack() if isinstance(v, GLib.Variant) else v


class Client:
    def __init__(self, args):
        self.args = args
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        self.sender = self.bus.get_unique_name()[1:].replace(".", "_")
        self.loop = GLib.MainLoop()
        self.counter = 0
        self.session = None
        self.status = 0

    def request(self, method, params, options, iface=IFACE, close_on_usr1=False):
        """Calls method with options + a handle_token; returns (response, results),
        or (None, None) when close_on_usr1 and SIGUSR1 closed the request."""
        self.counter += 1
        token = "oriel%d_%d" % (os.getpid(), self.counter)
        path = "%s/request/%s/%s" % (PATH, self.sender, token)
        answer = {}

        def on_response(conn, sender, obj, iface, signal_name, params_, data):
            answer["response"], answer["results"] = params_.unpack()
            self.loop.quit()
        sub = self.bus.signal_subscribe(DEST, "org.freedesktop.portal.Request", "Response",
                                        path, None, Gio.DBusSignalFlags.NONE, on_response,
                                        None)
        options = dict(options)
        options["handle_token"] = GLib.Variant("s", token)
        body = GLib.Variant("(%sa{sv})" % params[0], tuple(params[1]) + (options,))
        try:
            reply = self.bus.call_sync(DEST, PATH, iface, method, body,
                                       GLib.VariantType("(o)"), Gio.DBusCallFlags.NONE,
                                       30000, None)
        except GLib.Error as e:
            self.bus.signal_unsubscribe(sub)
            emit({"step": method, "error": e.message})
            sys.exit(4)
        if reply.unpack()[0] != path:
            emit({"step": method, "warning": "request path %s" % reply.unpack()[0]})
        usr1 = None
        if close_on_usr1:
            def close_request():
                self.bus.call_sync(DEST, reply.unpack()[0], "org.freedesktop.portal.Request",
                                   "Close", None, None, Gio.DBusCallFlags.NONE, 10000, None)
                answer["closed"] = True
                self.loop.quit()
                return GLib.SOURCE_REMOVE
            usr1 = GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, close_request)
            emit({"step": "start-pending"})
        timeout = GLib.timeout_add_seconds(60, self.loop.quit)
        self.loop.run()
        GLib.source_remove(timeout) if "response" in answer or "closed" in answer else None
        if usr1 is not None and "closed" not in answer:
            GLib.source_remove(usr1)
        self.bus.signal_unsubscribe(sub)
        if "closed" in answer:
            return None, None
        if "response" not in answer:
            emit({"step": method, "error": "no Response within 60 s"})
            sys.exit(5)
        return answer["response"], answer["results"]

    def step(self, method, params, options, iface=IFACE):
        response, results = self.request(method, params, options, iface)
        emit({"step": method, "response": response, "results": results})
        if response != 0:
            sys.exit(3)
        return results

    def one_shot(self, method, options):
        """Screenshot or PickColor: prints the step, exits 3 unless response 0."""
        response, results = self.request(method, ("s", [""]), options, SCREENSHOT,
                                         close_on_usr1=self.args.close_start_on_usr1)
        if response is None:
            emit({"step": method, "closed": True})
            sys.exit(0)
        emit({"step": method, "response": response, "results": results})
        sys.exit(0 if response == 0 else 3)

    def select_sources(self):
        a = self.args
        opts = {"types": GLib.Variant("u", a.types),
                "multiple": GLib.Variant("b", a.multiple)}
        if a.cursor_mode is not None:
            opts["cursor_mode"] = GLib.Variant("u", a.cursor_mode)
        if a.persist_mode is not None:
            opts["persist_mode"] = GLib.Variant("u", a.persist_mode)
        if a.restore_token is not None:
            opts["restore_token"] = GLib.Variant("s", a.restore_token)
        self.step("SelectSources", ("o", [self.session]), opts)

    def start(self, iface):
        response, results = self.request("Start", ("os", [self.session, ""]), {}, iface,
                                         close_on_usr1=self.args.close_start_on_usr1)
        if response is None:
            emit({"step": "Start", "closed": True})
            GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, self.loop.quit)
            self.loop.run()
            sys.exit(0)
        emit({"step": "Start", "response": response, "streams": results.get("streams", []),
              "results": {k: v for k, v in results.items() if k != "streams"}})
        if response != 0:
            sys.exit(3)

    def on_command(self, fd, condition):
        self.pending += os.read(fd, 65536)
        while b"\n" in self.pending:
            line, self.pending = self.pending.split(b"\n", 1)
            cmd = json.loads(line)
            sig, args = cmd["args"]
            body = GLib.Variant("(oa{sv}%s)" % sig, (self.session, {}) + tuple(args))
            try:
                self.bus.call_sync(DEST, PATH, REMOTE, cmd["method"], body, None,
                                   Gio.DBusCallFlags.NONE, 10000, None)
                emit({"step": "notify", "n": cmd["n"]})
            except GLib.Error as e:
                emit({"step": "notify", "n": cmd["n"], "error": e.message})
        return GLib.SOURCE_CONTINUE

    def run(self):
        a = self.args
        if a.screenshot:
            self.one_shot("Screenshot", {"interactive": GLib.Variant("b", a.interactive),
                                         "modal": GLib.Variant("b", False)})
        if a.pick_color:
            self.one_shot("PickColor", {})
        iface = REMOTE if a.remote_desktop else IFACE
        res = self.step("CreateSession", ("", []),
                        {"session_handle_token": GLib.Variant("s", "s%d" % os.getpid())},
                        iface)
        self.session = res["session_handle"]
        if a.remote_desktop:
            self.step("SelectDevices", ("o", [self.session]),
                      {"types": GLib.Variant("u", a.devices)}, REMOTE)
            if a.with_screencast:
                self.select_sources()
        else:
            self.select_sources()
        self.start(iface)
        if a.commands:
            # O_RDWR: no end of file while the test has not opened it yet.
            fd = os.open(a.commands, os.O_RDWR | os.O_NONBLOCK)
            self.pending = b""
            GLib.io_add_watch(fd, GLib.IO_IN, self.on_command)
            emit({"step": "ready"})

        def on_closed(*_):
            emit({"step": "session-closed"})
            self.loop.quit()
        self.bus.signal_subscribe(DEST, "org.freedesktop.portal.Session", "Closed",
                                  self.session, None, Gio.DBusSignalFlags.NONE,
                                  on_closed, None)

        def on_term():
            self.bus.call_sync(DEST, self.session, "org.freedesktop.portal.Session",
                               "Close", None, None, Gio.DBusCallFlags.NONE, 10000, None)
            emit({"step": "closed"})
            self.loop.quit()
            return GLib.SOURCE_REMOVE
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, on_term)
        self.loop.run()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--types", type=int, default=1)
    p.add_argument("--multiple", action="store_true")
    p.add_argument("--cursor-mode", type=int, default=None)
    p.add_argument("--persist-mode", type=int, default=None)
    p.add_argument("--restore-token", default=None)
    p.add_argument("--screenshot", action="store_true")
    p.add_argument("--interactive", action="store_true")
    p.add_argument("--pick-color", action="store_true")
    p.add_argument("--remote-desktop", action="store_true")
    p.add_argument("--devices", type=int, default=3)
    p.add_argument("--with-screencast", action="store_true")
    p.add_argument("--commands", default=None)
    p.add_argument("--close-start-on-usr1", action="store_true")
    Client(p.parse_args()).run()


if __name__ == "__main__":
    main()
