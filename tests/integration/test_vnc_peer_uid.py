#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Without accounts, a session's VNC serves only the uid that runs it.

oriel runs as root with no accounts and no password, serving VNC on
127.0.0.1 (and on [::1] where the host has it) and on a Unix socket that
the test opens to everyone (0777), with a coloured window shown. As
`nobody` (runuser):
- a raw RFB client is offered no security type, and the reason it gets
  names uid 65534; so does the one over the Unix socket and over IPv6;
- oriel-test-vncviewer (libvncclient) cannot connect and shows the same
  reason;
- a WebSocket upgrade (as noVNC makes it) gets 403 with the reason;
- a client that sends a whole login and a key press blindly and closes
  its socket before oriel accepts it (the kernel then reports the socket
  as root's, with no inode) is refused too;
- oriel's log names uid 65534 for every one of them, and no viewer of
  uid 65534 ever logs in.
As root, the same clients get in: the viewer's framebuffer equals a
screenshot, over TCP and the Unix socket, and the WebSocket client reaches
the ServerInit with the output's size.
"""
import os
import signal
import socket

import harness
import peer_uid
import vnc
from harness import Session, expect, expect_eq, geometry

COLOUR = (0x30, 0x90, 0xd0)
NOBODY = "nobody"
REFUSED_UID = "it comes from uid 65534, not uid 0"


def has_ipv6_loopback():
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def main():
    port = vnc.free_port()
    port6 = vnc.free_port()
    ipv6 = has_ipv6_loopback()
    with peer_uid.Outsiders() as out:
        sock = out.base / "vnc.sock"
        viewer = out.client("ORIEL_TEST_VNCVIEWER")
        args = vnc.vnc_args(port, "--vnc-unix", sock)
        if ipv6:
            args += ["--vnc", "[::1]:%d" % port6]
        with Session(outputs=["800x600"], xwayland="off", args=args) as s:
            client = s.spawn_colour(COLOUR, size=(200, 150), title="peer uid",
                                    app_id="org.oriel.test.peeruid")
            client.wait_ready(size=(200, 150))
            rect = geometry(s.wait_window(app_id="org.oriel.test.peeruid"))
            exclude = s.park_pointer()
            s.wait_colour(rect, COLOUR, tolerance=0)
            vnc.wait_listening(s, vnc.tcp(port))
            vnc.wait_listening(s, sock)
            # The listener makes it 0700; opened up, only the uid rule is left.
            os.chmod(sock, 0o777)

            targets = [("127.0.0.1:%d" % port, "127.0.0.1"), (str(sock), "a connection "
                       "on the Unix socket")]
            if ipv6:
                targets.append(("[::1]:%d" % port6, "::1"))
            for target, shown in targets:
                line = out.probe(NOBODY, "rfb", target)
                expect(line.startswith("refused ") and REFUSED_UID in line,
                       "RFB as nobody on %s: %s" % (target, line))
                s.wait_for(lambda: "VNC: refused %s: %s" % (shown, REFUSED_UID)
                           in s.log_text(), what="the log to name uid 65534 for %s" % target)

            line = out.probe(NOBODY, "ws", "127.0.0.1:%d" % port)
            expect(line.startswith("refused HTTP/1.1 403") and REFUSED_UID in line,
                   "WebSocket as nobody: %s" % line)

            argv = vnc.viewer_argv(vnc.tcp(port), ["snapshot", out.base / "never.ppm"],
                                   timeout=10)
            res = out.run(NOBODY, [viewer] + argv[1:])
            expect(res.returncode != 0, "the viewer as nobody exited 0:\n%s" % res.stdout)
            expect("VNC connection failed: refused: " + REFUSED_UID in res.stderr,
                   "the viewer as nobody shows why:\n%s" % res.stderr[-2000:])
            expect(not (out.base / "never.ppm").exists(), "nobody got a framebuffer")

            log = s.log_text()
            expect(log.count("VNC: refused 127.0.0.1: " + REFUSED_UID) >= 3,
                   "a refusal logged for each TCP client of nobody")

            # oriel stopped meanwhile, so that it accepts only once the
            # socket was closed.
            s.oriel.send_signal(signal.SIGSTOP)
            try:
                line = out.probe(NOBODY, "blind", "127.0.0.1:%d" % port)
            finally:
                s.oriel.send_signal(signal.SIGCONT)
            expect_eq(line, "sent", "the blind client")
            s.wait_for(lambda: "VNC: refused 127.0.0.1: which user it comes from cannot be "
                       "found (its end was closed)" in s.log_text(),
                       what="the blind client to be refused")
            expect("viewer 127.0.0.1 connected" not in s.log_text(),
                   "a viewer of nobody connected")

            # Root, the session's user, gets in everywhere.
            shot = s.screenshot()
            img = vnc.snapshot(s, vnc.tcp(port))
            vnc.expect_same_pixels(img, shot, exclude=exclude, what="root's framebuffer")
            expect_eq(img.count_colour(rect, COLOUR), rect[2] * rect[3],
                      "pixels of the window's colour for root")
            img = vnc.snapshot(s, sock)
            vnc.expect_same_pixels(img, shot, exclude=exclude,
                                   what="root's framebuffer over the Unix socket")
            line = out.probe("root", "ws", "127.0.0.1:%d" % port)
            expect_eq(line, "in 800x600", "root over WebSocket")
            line = out.probe("root", "rfb", str(sock))
            expect_eq(line, "in 800x600", "root's raw RFB on the Unix socket")
            if ipv6:
                expect_eq(out.probe("root", "rfb", "[::1]:%d" % port6), "in 800x600",
                          "root's raw RFB over IPv6")
            expect("uid 0, not" not in s.log_text(), "root was refused somewhere")


if __name__ == "__main__":
    harness.run(main)
