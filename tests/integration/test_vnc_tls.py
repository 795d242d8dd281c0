#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""WebSocket over TLS (wss) with --vnc-tls-cert/--vnc-tls-key, next to
plain ws and plain RFB on the same port.

A self-signed certificate for localhost is made with openssl.  A minimal
RFC 6455 client (Python's ssl + socket) connects with TLS, checking the
server's certificate against that one, upgrades to a WebSocket and runs
RFB through it: the version string, the security type None, ServerInit
with the output's size.  The same works without TLS (ws), a libvncclient
viewer still connects with plain RFB, and a client that sends a TLS hello
and then garbage is dropped without harming the others.
"""
import base64
import hashlib
import os
import socket
import ssl
import struct
import subprocess
import tempfile
from pathlib import Path

import harness
import vnc
from harness import Session, TestFailure, expect, expect_eq, tool

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class WS:
    """A WebSocket client over a (possibly TLS) socket, binary frames."""

    def __init__(self, sock, host, origin):
        self.sock = sock
        self.buf = b""
        key = base64.b64encode(os.urandom(16))
        self.sock.sendall((
            "GET /websockify HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
            "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: binary\r\n\r\n"
            % (host, origin, key.decode())).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise TestFailure("the connection closed during the WebSocket "
                                  "handshake (got %r)" % head)
            head += chunk
        head, _, self.buf = head.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise TestFailure("WebSocket handshake refused: %s" % lines[0])
        headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip()
                   for l in lines[1:] if ":" in l}
        accept = base64.b64encode(hashlib.sha1(key + GUID).digest()).decode()
        expect_eq(headers.get("sec-websocket-accept"), accept, "Sec-WebSocket-Accept")
        self.data = b""  # payload bytes received, not yet consumed

    def _recv(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise TestFailure("the WebSocket connection closed")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def _frame(self):
        b0, b1 = self._recv(2)
        opcode = b0 & 0x0f
        n = b1 & 0x7f
        if n == 126:
            n = struct.unpack(">H", self._recv(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", self._recv(8))[0]
        mask = self._recv(4) if b1 & 0x80 else None
        payload = self._recv(n)
        if mask:
            payload = bytes(c ^ mask[i & 3] for i, c in enumerate(payload))
        if opcode == 0x8:
            raise TestFailure("the server closed the WebSocket: %r" % payload)
        return opcode, payload

    def read(self, n):
        """n bytes of the RFB stream inside the WebSocket."""
        while len(self.data) < n:
            opcode, payload = self._frame()
            if opcode in (0x0, 0x1, 0x2):
                self.data += payload
        out, self.data = self.data[:n], self.data[n:]
        return out

    def write(self, payload):
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            header = bytes([0x82, 0x80 | n])
        else:
            header = bytes([0x82, 0x80 | 126]) + struct.pack(">H", n)
        self.sock.sendall(header + mask +
                          bytes(c ^ mask[i & 3] for i, c in enumerate(payload)))


def rfb_over(ws, what):
    """Runs RFB through ws up to ServerInit; returns (width, height)."""
    version = ws.read(12)
    expect_eq(version, b"RFB 003.008\n", "RFB version string over %s" % what)
    ws.write(b"RFB 003.008\n")
    n = ws.read(1)[0]
    types = ws.read(n)
    expect(1 in types, "security type None offered over %s: %r" % (what, types))
    ws.write(b"\x01")
    expect_eq(ws.read(4), b"\0\0\0\0", "SecurityResult over %s" % what)
    ws.write(b"\x01")  # ClientInit, shared
    w, h = struct.unpack(">HH", ws.read(4))
    ws.read(16)  # pixel format
    name_len = struct.unpack(">I", ws.read(4))[0]
    ws.read(name_len)
    # A framebuffer update request, answered with an update.
    ws.write(struct.pack(">BBHHHH", 3, 0, 0, 0, w, h))
    msg_type = ws.read(1)[0]
    expect_eq(msg_type, 0, "first server message over %s (FramebufferUpdate)" % what)
    return w, h


def client_hello():
    """The first flight of a TLS client (its ClientHello record)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname="localhost")
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


def closed_by_server(sock, timeout=20):
    """True once the server closes sock (reading whatever it sent first)."""
    sock.settimeout(harness.T(timeout))
    try:
        while sock.recv(65536):
            pass
    except ConnectionResetError:
        pass
    except socket.timeout:
        return False
    return True


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-tls-") as d:
        cert = Path(d) / "cert.pem"
        key = Path(d) / "key.pem"
        res = subprocess.run(
            [tool("openssl"), "req", "-x509", "-newkey", "rsa:2048", "-nodes",
             "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
             "-days", "1", "-keyout", str(key), "-out", str(cert)],
            capture_output=True, text=True)
        expect_eq(res.returncode, 0, "openssl req exit status (%s)" % res.stderr.strip())

        port = vnc.free_port()
        with Session(outputs=["800x600"],
                     args=vnc.vnc_args(port, "--vnc-tls-cert", cert,
                                       "--vnc-tls-key", key)) as s:
            vnc.wait_listening(s, vnc.tcp(port))

            # A client that starts TLS and then sends garbage is dropped.
            bad = socket.create_connection((vnc.LOCALHOST, port), timeout=harness.T(10))
            bad.sendall(b"\x16\x03\x01\x00\x05garbage and more garbage")

            # Clients that stall in the TLS handshake, with half a hello or
            # after a whole one, are dropped, and oriel goes on meanwhile.
            half = socket.create_connection((vnc.LOCALHOST, port), timeout=harness.T(10))
            half.sendall(client_hello()[:20])
            stalled = socket.create_connection((vnc.LOCALHOST, port), timeout=harness.T(10))
            stalled.sendall(client_hello())
            for sock, what in ((half, "half a TLS hello"), (stalled, "a TLS hello")):
                expect(closed_by_server(sock), "a client that stalled after %s was "
                       "not dropped" % what)
                sock.close()
            s.check_alive()
            s.outputs()  # the control API answers: the event loop runs

            context = ssl.create_default_context(cafile=str(cert))
            raw = socket.create_connection((vnc.LOCALHOST, port), timeout=harness.T(15))
            tls = context.wrap_socket(raw, server_hostname="localhost")
            expect(tls.version() is not None, "no TLS version negotiated")
            wss = WS(tls, "localhost:%d" % port, "https://localhost:%d" % port)
            expect_eq(rfb_over(wss, "wss"), (800, 600), "ServerInit size over wss")

            # Plain ws on the same port, alongside.
            plain = socket.create_connection((vnc.LOCALHOST, port), timeout=harness.T(15))
            ws = WS(plain, "localhost:%d" % port, "http://localhost:%d" % port)
            expect_eq(rfb_over(ws, "ws"), (800, 600), "ServerInit size over ws")

            # And a plain RFB viewer.
            v = vnc.Viewer(s, vnc.tcp(port))
            expect_eq(v.wait_connected(), (800, 600), "plain RFB viewer's framebuffer")
            v.wait_line("frame")

            # The TLS session still works after the others came.
            wss.write(struct.pack(">BBHHHH", 3, 0, 0, 0, 800, 600))
            bad.close()
            tls.close()
            plain.close()
            v.close()
            s.check_alive()


if __name__ == "__main__":
    harness.run(main)
