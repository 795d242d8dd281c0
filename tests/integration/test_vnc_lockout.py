#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Connections that never finish their handshake lock nobody out.

- 200 silent TCP connections and 200 half-sent HTTP requests (`GET /
  HTTP/1.1` and a Host line, never the blank line) are open at once from
  127.0.0.1; then a libvncclient viewer from the same address gets in and
  receives its first frame within 2 s, with --vnc-max-clients 1: the
  connections still in their handshake are not viewers;
- oriel closes every one of those 400 connections: older ones give way
  to newer ones from the same address (--vnc-max-pending-per-address),
  the last ones at the handshake deadline (--vnc-handshake-timeout 3, scaled with
  ORIEL_TEST_TIMEOUT_SCALE),
  both logged as such, while the viewer stays connected and keeps getting
  updates;
- on a 0.0.0.0 listener with accounts, 300 connections from 127.0.0.2
  (the second half opened while the viewer starts) leave a viewer from
  127.0.0.3 unaffected: it logs in with X509Plain and gets a frame within
  2 s;
- 100 connections from 100 addresses (127.0.1.1 and on) fill the total
  cap (--vnc-max-pending, 64): a viewer from 127.0.0.4 still gets a frame
  within 2 s.
"""
import resource
import selectors
import socket
import tempfile
import threading
import time
from pathlib import Path

import harness
import vnc
from harness import NotYet, Session, T, TestFailure, expect, expect_eq

COLOUR = (0xc0, 0x40, 0x90)
# The handshake deadline, longer on slow machines (ORIEL_TEST_TIMEOUT_SCALE).
DEADLINE = str(max(3, int(round(T(3)))))
PASSWORD = "lockout-Pass-3381"


def raise_fd_limit(n):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(n, hard), hard))
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    expect(soft >= n, "cannot raise RLIMIT_NOFILE to %d (hard limit %d)" % (n, hard))


def open_connections(port, n, source=None, payload=None):
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if source:
            s.bind((source, 0))
        s.settimeout(T(10))
        s.connect((vnc.LOCALHOST, port))
        if payload:
            s.sendall(payload)
        socks.append(s)
    return socks


def wait_all_closed(socks, timeout, what):
    """Waits until the server has closed every socket (EOF or reset)."""
    sel = selectors.DefaultSelector()
    for s in socks:
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
    left = len(socks)
    deadline = time.monotonic() + T(timeout)
    while left:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TestFailure("%d of %d %s are still open after %.0f s" % (
                left, len(socks), what, T(timeout)))
        for key, _ in sel.select(min(remaining, 1)):
            try:
                data = key.fileobj.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                sel.unregister(key.fileobj)
                left -= 1
    sel.close()


def first_frame_within(viewer, seconds, start):
    viewer.wait_connected(timeout=seconds)
    viewer.wait_line("frame", timeout=seconds)
    elapsed = time.monotonic() - start
    expect(elapsed <= T(seconds), "%s took %.2f s to get its first frame (at most %d s)"
           % (viewer.name, elapsed, seconds))
    return elapsed


def main():
    raise_fd_limit(2048)

    # 200 silent connections and 200 half-sent requests, then a viewer.
    port = vnc.free_port()
    with Session(outputs=["800x600"],
                 args=vnc.vnc_args(port, "--vnc-handshake-timeout", DEADLINE,
                                   "--vnc-max-clients", "1")) as s:
        s.colour_window_at(COLOUR, (200, 100), (100, 100), "pink", "org.oriel.test.pink")
        vnc.wait_listening(s, vnc.tcp(port))
        silent = open_connections(port, 200)
        half = open_connections(port, 200, payload=b"GET / HTTP/1.1\r\nHost: x\r\n")
        s.check_alive()
        start = time.monotonic()
        v = vnc.Viewer(s, vnc.tcp(port), name="viewer")
        took = first_frame_within(v, 2, start)
        harness.log("with 400 connections open the viewer got a frame in %.2f s" % took)
        wait_all_closed(silent + half, 30, "silent or half-sent connections")
        for sock in silent + half:
            sock.close()
        text = s.log_text()
        expect("no login within %s s (--vnc-handshake-timeout)" % DEADLINE in text,
               "oriel's log does not say it closed connections at the deadline")
        expect("gives way to a newer connection from the same address" in text,
               "oriel's log does not say older connections gave way to newer ones")
        mark = v.mark()
        v.send("full")
        v.wait_line("frame", since=mark, what="a frame after the guests were closed")
        v.wait_colour((100, 100, 200, 100), COLOUR, what="the colour window")
        expect(v.alive(), "the viewer was disconnected")
        v.close()

    # One address's 300 connections against another's viewer.
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-lockout-") as d:
        users = vnc.write_users_file(d, [("alice", PASSWORD)])
        secret = vnc.write_secret_in(d, "alice", PASSWORD)
        port = vnc.free_port()
        with Session(outputs=["800x600"],
                     args=["--vnc", "0.0.0.0:%d" % port, "--vnc-users", str(users),
                           "--vnc-handshake-timeout", DEADLINE]) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            cert, _fp, _made = vnc.certificate(s)
            socks = open_connections(port, 150, source="127.0.0.2")
            opened = []
            stop = threading.Event()
            errors = []

            def keep_opening():
                try:
                    while not stop.is_set() and len(opened) < 150:
                        opened.extend(open_connections(port, 1, source="127.0.0.2"))
                except OSError as e:
                    errors.append(e)
            churn = threading.Thread(target=keep_opening, daemon=True)
            churn.start()
            start = time.monotonic()
            v = vnc.Viewer(s, vnc.tcp(port), name="other-address", user="alice",
                           password_file=secret, ca=cert, bind="127.0.0.3")
            took = first_frame_within(v, 2, start)
            harness.log("with 127.0.0.2 connecting, the viewer from 127.0.0.3 got a "
                        "frame in %.2f s" % took)
            churn.join(T(30))
            stop.set()
            expect(not errors, "opening connections from 127.0.0.2 failed: %s" % errors)
            expect_eq(len(socks) + len(opened), 300, "connections from 127.0.0.2")
            expect('viewer 127.0.0.3 logged in as "alice"' in s.log_text(),
                   "oriel did not log the login from 127.0.0.3")
            wait_all_closed(socks + opened, 30, "connections from 127.0.0.2")
            for sock in socks + opened:
                sock.close()
            mark = v.mark()
            v.send("full")
            v.wait_line("frame", since=mark, what="a frame after 127.0.0.2's connections")
            expect(v.alive(), "the viewer from 127.0.0.3 was disconnected")
            v.close()

            # Many addresses: the total cap.
            many = []
            for i in range(100):
                many += open_connections(port, 1, source="127.0.1.%d" % (i + 1))
            start = time.monotonic()
            v = vnc.Viewer(s, vnc.tcp(port), name="total-cap", user="alice",
                           password_file=secret, ca=cert, bind="127.0.0.4")
            took = first_frame_within(v, 2, start)
            harness.log("with 100 addresses connected, the viewer from 127.0.0.4 got a "
                        "frame in %.2f s" % took)
            expect("gives way to a newer connection (--vnc-max-pending)" in s.log_text(),
                   "oriel's log does not say the total cap made room")
            wait_all_closed(many, 30, "connections from 100 addresses")
            for sock in many:
                sock.close()
            expect(v.alive(), "the viewer from 127.0.0.4 was disconnected")
            v.close()


if __name__ == "__main__":
    harness.run(main)
