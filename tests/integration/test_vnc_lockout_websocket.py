#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""WebSocket connections that never finish the RFB handshake lock nobody
out either.

A browser's connection is a guest until it has logged in, like a native
viewer's: the issue's handshake deadline covers "an HTTP or WebSocket
request that is not complete in time", and connections before
authentication do not count toward --vnc-max-clients.

With --vnc-handshake-timeout 3 and the default 16 viewer slots, from 20
addresses (127.0.2.1 and on), each connection sends a complete WebSocket
upgrade (ws: in the clear; wss: after a TLS handshake with oriel's
certificate), gets its 101 answer, and then sends nothing more (it
never answers the RFB version).  Then:
- a libvncclient viewer still gets in and receives a frame within 2 s;
- oriel closes all 20 of them by the deadline.
"""
import base64
import os
import socket
import ssl
import time

import harness
import vnc
from harness import Session, TestFailure, expect, T

import test_vnc_lockout


# The handshake deadline, longer on slow machines (ORIEL_TEST_TIMEOUT_SCALE).
DEADLINE = max(3, int(round(T(3))))


def upgrade(port):
    key = base64.b64encode(os.urandom(16)).decode()
    host = "127.0.0.1:%d" % port
    return ("GET /websockify HTTP/1.1\r\nHost: %s\r\nOrigin: http://%s\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
            "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: binary\r\n\r\n"
            % (host, host, key)).encode()


def stalled_websocket(port, source, cert=None):
    """A WebSocket that got its 101, then says nothing; None if oriel closed
    it before answering."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.bind((source, 0))
    raw.settimeout(T(10))
    raw.connect((vnc.LOCALHOST, port))
    sock = raw
    if cert is not None:
        context = ssl.create_default_context(cafile=str(cert))
        sock = context.wrap_socket(raw, server_hostname=vnc.LOCALHOST)
    sock.sendall(upgrade(port))
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            sock.close()
            return None
        head += chunk
    if b" 101 " not in head.split(b"\r\n", 1)[0] + b" ":
        raise TestFailure("the WebSocket upgrade from %s was answered %r"
                          % (source, head.split(b"\r\n", 1)[0]))
    return sock


def main():
    for kind in ("ws", "wss"):
        port = vnc.free_port()
        with Session(outputs=["640x480"],
                     args=vnc.vnc_args(port, "--vnc-handshake-timeout", DEADLINE)) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            cert, _fp, _made = vnc.certificate(s)
            socks = [stalled_websocket(port, "127.0.2.%d" % (i + 1),
                                       cert if kind == "wss" else None)
                     for i in range(20)]
            socks = [sock for sock in socks if sock is not None]
            harness.log("%d of 20 stalled %s connections got their 101" % (
                len(socks), kind))
            start = time.monotonic()
            v = vnc.Viewer(s, vnc.tcp(port), name="viewer-%s" % kind)
            try:
                test_vnc_lockout.first_frame_within(v, 2, start)
            except TestFailure as e:
                raise TestFailure("with 20 stalled %s connections: %s" % (kind, e))
            # Watch the TCP connections themselves (TLS records are just bytes).
            raws = [socket.socket(fileno=os.dup(sock.fileno())) for sock in socks]
            test_vnc_lockout.wait_all_closed(raws, 15, "stalled %s connections" % kind)
            for sock in raws + socks:
                sock.close()
            expect(v.alive(), "the viewer was disconnected")
            v.close()


if __name__ == "__main__":
    harness.run(main)
