#!/usr/bin/python3
"""A scripted client of the public org.freedesktop.portal.ScreenCast API,
for the portal suite. It runs with the system Python (/usr/bin/python3),
whose python3-gi gives it Gio: one bus connection for the whole exchange,
as the frontend binds sessions to the connection that created them.

    /usr/bin/python3 portal_client.py [--multiple] [--cursor-mode N] [--types N]

Prints one JSON object per line on stdout:
    {"step": "CreateSession", "response": 0, "results": {...}}
    {"step": "SelectSources", ...}
    {"step": "Start", "response": 0, "streams": [[node, {...}], ...]}
then holds the session open until SIGTERM, on which it calls
org.freedesktop.portal.Session.Close and prints {"step": "closed"}. A
Session.Closed signal from the portal prints {"step": "session-closed"}.
A response other than 0 prints its step and exits with status 3.
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

    def request(self, method, params, options):
        """Calls method with options + a handle_token; returns (response, results)."""
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
            reply = self.bus.call_sync(DEST, PATH, IFACE, method, body,
                                       GLib.VariantType("(o)"), Gio.DBusCallFlags.NONE,
                                       30000, None)
        except GLib.Error as e:
            self.bus.signal_unsubscribe(sub)
            emit({"step": method, "error": e.message})
            sys.exit(4)
        if reply.unpack()[0] != path:
            emit({"step": method, "warning": "request path %s" % reply.unpack()[0]})
        timeout = GLib.timeout_add_seconds(60, self.loop.quit)
        self.loop.run()
        GLib.source_remove(timeout) if "response" in answer else None
        self.bus.signal_unsubscribe(sub)
        if "response" not in answer:
            emit({"step": method, "error": "no Response within 60 s"})
            sys.exit(5)
        return answer["response"], answer["results"]

    def step(self, method, params, options):
        response, results = self.request(method, params, options)
        emit({"step": method, "response": response, "results": results})
        if response != 0:
            sys.exit(3)
        return results

    def run(self):
        a = self.args
        res = self.step("CreateSession", ("", []),
                        {"session_handle_token": GLib.Variant("s", "s%d" % os.getpid())})
        self.session = res["session_handle"]
        opts = {"types": GLib.Variant("u", a.types),
                "multiple": GLib.Variant("b", a.multiple)}
        if a.cursor_mode is not None:
            opts["cursor_mode"] = GLib.Variant("u", a.cursor_mode)
        self.step("SelectSources", ("o", [self.session]), opts)
        response, results = self.request("Start", ("os", [self.session, ""]), {})
        emit({"step": "Start", "response": response, "streams": results.get("streams", []),
              "results": {k: v for k, v in results.items() if k != "streams"}})
        if response != 0:
            sys.exit(3)

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
    Client(p.parse_args()).run()


if __name__ == "__main__":
    main()
