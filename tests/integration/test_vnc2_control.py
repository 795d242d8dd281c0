#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""VNC listeners and viewers at run time: `orielctl vnc` and the
org.oriel.Compositor.Vnc interface.

- `orielctl vnc clients` lists viewers (id, peer, access), oldest first;
- `orielctl vnc start 127.0.0.1:PORT` adds a listener viewers can use;
  starting it twice fails, and a non-loopback address without an account
  check is refused with the security rule's message;
- `orielctl vnc disconnect ID` drops exactly that viewer;
- `orielctl vnc stop 127.0.0.1:PORT` stops new connections there while
  viewers that came through it stay; stopping it again fails;
- dbus-send (not on the allowlist) is refused StartListener, Disconnect
  and StopListener with AccessDenied, and still may list clients;
- a session started without --vnc gets a VNC server from `vnc start`,
  which shuts down cleanly with it (LSan).
"""
import socket
import subprocess

import vnc
import harness
from harness import NotYet, Session, expect, expect_eq, tool

DENIED = "org.freedesktop.DBus.Error.AccessDenied"


def clients(s):
    return s.orielctl("vnc", "clients", json=True)


def wait_clients(s, n, what):
    def check():
        c = clients(s)
        if len(c) != n:
            raise NotYet("clients: %r" % c)
        return c
    return s.wait_for(check, what=what)


def refused(port):
    try:
        socket.create_connection((vnc.LOCALHOST, port), 2).close()
    except ConnectionRefusedError:
        return True
    return False


def ctl_fails(s, *args, mention=None):
    res = s.orielctl_raw(*args)
    expect(res.returncode == 1, "orielctl %s exited %s, not 1: %s%s" % (
        " ".join(map(str, args)), res.returncode, res.stdout, res.stderr))
    if mention:
        expect(mention in res.stderr, "orielctl %s: %r does not mention %r" % (
            " ".join(map(str, args)), res.stderr.strip(), mention))
    s.check_alive()
    return res


def main():
    port1, port2 = vnc.free_port(), vnc.free_port()
    with Session(outputs=["640x480"], args=vnc.vnc_args(port1)) as s:
        vnc.wait_listening(s, vnc.tcp(port1))
        expect_eq(clients(s), [], "viewers before any connected")

        v1 = vnc.Viewer(s, vnc.tcp(port1), name="viewer1")
        v1.wait_connected()
        (c1,) = wait_clients(s, 1, "one viewer listed")
        expect_eq((c1["peer"], c1["view_only"]), ("127.0.0.1", False), "viewer 1")

        expect(refused(port2), "port %d is open before vnc start" % port2)
        s.orielctl("vnc", "start", "127.0.0.1:%d" % port2)
        vnc.wait_listening(s, vnc.tcp(port2))
        ctl_fails(s, "vnc", "start", "127.0.0.1:%d" % port2, mention="already")
        ctl_fails(s, "vnc", "start", "0.0.0.0:%d" % vnc.free_port(), mention="without accounts")
        ctl_fails(s, "vnc", "start", "not-an-address:x")

        # The certificate made on first use: kept private, and what
        # `vnc fingerprint` prints is the file's SHA-256, as openssl sees it.
        cert = s.home / ".local/state/oriel/tls/cert.pem"
        key = s.home / ".local/state/oriel/tls/key.pem"
        expect_eq(oct(key.stat().st_mode & 0o777), "0o600", "the key's mode")
        expect_eq(oct(cert.stat().st_mode & 0o777), "0o600", "the certificate's mode")
        shown = s.orielctl("vnc", "fingerprint", json=True)
        x509 = subprocess.run(["openssl", "x509", "-in", str(cert), "-noout",
                               "-fingerprint", "-sha256"],
                              capture_output=True, text=True, check=True).stdout
        expect_eq(shown["sha256"], x509.strip().split("=", 1)[1],
                  "orielctl vnc fingerprint against openssl")
        expect_eq(shown["path"], str(cert), "the certificate's path")
        expect(shown["sha256"] in s.log_text(), "the fingerprint is not in oriel's log")

        v2 = vnc.Viewer(s, vnc.tcp(port2), name="viewer2")
        v2.wait_connected()
        both = wait_clients(s, 2, "two viewers listed")
        expect_eq(both[0]["id"], c1["id"], "oldest viewer first")
        c2 = both[1]
        expect(c2["id"] != c1["id"], "viewer ids are not distinct: %r" % both)

        s.orielctl("vnc", "disconnect", c1["id"])
        line = v1.wait_exit_line()
        expect_eq(line, "disconnected", "viewer 1's last line after vnc disconnect")
        (left,) = wait_clients(s, 1, "one viewer after the disconnect")
        expect_eq(left["id"], c2["id"], "the viewer left")
        ctl_fails(s, "vnc", "disconnect", c1["id"], mention="no VNC viewer")
        res = s.orielctl_raw("vnc", "disconnect", "abc")
        expect_eq(res.returncode, 2, "orielctl vnc disconnect abc exit status")

        s.orielctl("vnc", "stop", "127.0.0.1:%d" % port2)
        def closed():
            if not refused(port2):
                raise NotYet("port %d still accepts connections" % port2)
            return True
        s.wait_for(closed, what="port %d closed after vnc stop" % port2)
        ctl_fails(s, "vnc", "stop", "127.0.0.1:%d" % port2, mention="not listening")
        mark = v2.mark()
        v2.send("full")
        v2.wait_line("frame", since=mark)
        expect(v2.alive(), "viewer 2 went away when its listener stopped")
        expect_eq([c["id"] for c in clients(s)], [c2["id"]], "viewers after vnc stop")
        vnc.wait_listening(s, vnc.tcp(port1))

        def dbus_send(method, *args):
            return s.run_tool([tool("dbus-send"), "--bus=" + s.bus_address,
                               "--print-reply", "--dest=org.oriel.Compositor",
                               "/org/oriel/Compositor",
                               "org.oriel.Compositor.Vnc." + method] + list(args),
                              check=False)
        for method, args in (("StartListener", ["string:127.0.0.1:%d" % vnc.free_port()]),
                             ("StopListener", ["string:127.0.0.1:%d" % port1]),
                             ("Disconnect", ["uint64:%d" % c2["id"]])):
            res = dbus_send(method, *args)
            expect(res.returncode != 0 and DENIED in res.stderr,
                   "dbus-send Vnc.%s was not refused with AccessDenied: %s %s"
                   % (method, res.stdout, res.stderr))
        res = dbus_send("ListClients")
        expect(res.returncode == 0 and "array" in res.stdout,
               "dbus-send Vnc.ListClients: %s %s" % (res.stdout, res.stderr))
        vnc.wait_listening(s, vnc.tcp(port1))
        expect(v2.alive(), "viewer 2 went away after the refused calls")
        v2.close()

    # No --vnc: the control API starts the server.
    port3 = vnc.free_port()
    with Session(outputs=["640x480"]) as s:
        expect_eq(clients(s), [], "viewers in a session without VNC")
        ctl_fails(s, "vnc", "stop", "127.0.0.1:%d" % port3, mention="not listening")
        s.orielctl("vnc", "start", str(port3))
        vnc.wait_listening(s, vnc.tcp(port3))
        img = vnc.snapshot(s, vnc.tcp(port3))
        expect_eq((img.width, img.height), (640, 480), "framebuffer size")
        v = vnc.Viewer(s, vnc.tcp(port3))
        v.wait_connected()
        wait_clients(s, 1, "a viewer of the VNC server vnc start started")


if __name__ == "__main__":
    harness.run(main)
