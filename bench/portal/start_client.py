#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""ScreenCast Start to first frame, for bench/run-portal. Runs with the
system Python (python3-gi), like tests/integration/portal_client.py,
whose Client it reuses.

    /usr/bin/python3 start_client.py --pwcounter PATH [--timeout S]

Starts bench-pwcounter --first-frame (its PipeWire context made before
the cast exists, as a browser's is), then CreateSession, SelectSources
(one monitor), and times from sending Start:
  - its Response (the node id),
  - OpenPipeWireRemote's reply (the fd the consumer connects through),
  - the consumer's stream getting its format, going to streaming, and
    its first delivered buffer with pixels.
Prints one JSON object (CLOCK_MONOTONIC ns, and ms since Start), closes
the session and exits; status 3 when Start's response is not 0.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tests", "integration"))
import portal_client  # noqa: E402
from portal_client import DEST, IFACE, PATH, Gio, GLib  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pwcounter", required=True)
    ap.add_argument("--timeout", type=float, default=20)
    args = ap.parse_args()
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    consumer = subprocess.Popen([args.pwcounter, "--first-frame", "--duration",
                                 str(args.timeout)], stdin=theirs, stdout=subprocess.PIPE,
                                text=True)
    theirs.close()
    if json.loads(consumer.stdout.readline() or "{}").get("ready") is not True:
        sys.exit("bench-pwcounter did not start")

    c = portal_client.Client(argparse.Namespace(
        types=1, multiple=False, cursor_mode=None, persist_mode=None, restore_token=None))
    res = c.step("CreateSession", ("", []),
                 {"session_handle_token": GLib.Variant("s", "s%d" % os.getpid())})
    c.session = res["session_handle"]
    c.select_sources()

    out = {}
    t0 = time.monotonic_ns()
    response, results = c.request("Start", ("os", [c.session, ""]), {})
    t1 = time.monotonic_ns()
    out.update(start_ns=t0, response=response, response_ms=(t1 - t0) / 1e6)
    if response != 0:
        print(json.dumps(out), flush=True)
        consumer.kill()
        sys.exit(3)
    node = results["streams"][0][0]
    reply, fds = c.bus.call_with_unix_fd_list_sync(
        DEST, PATH, IFACE, "OpenPipeWireRemote", GLib.Variant("(oa{sv})", (c.session, {})),
        GLib.VariantType("(h)"), Gio.DBusCallFlags.NONE, 10000, None, None)
    fd = fds.get(reply.unpack()[0])
    t2 = time.monotonic_ns()
    socket.send_fds(ours, [str(node).encode()], [fd])
    os.close(fd)
    first = json.loads(consumer.stdout.read() or "{}")
    consumer.wait()
    out.update(node=node, remote_ms=(t2 - t0) / 1e6, consumer=first)
    for step in ("format", "streaming", "first_frame"):
        if first.get(step + "_ns"):
            out[step + "_ms"] = (first[step + "_ns"] - t0) / 1e6
    c.bus.call_sync(DEST, c.session, "org.freedesktop.portal.Session", "Close", None, None,
                    Gio.DBusCallFlags.NONE, 10000, None)
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
