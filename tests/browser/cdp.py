# SPDX-License-Identifier: MIT
"""Headless Chromium driven over the DevTools protocol, in pure Python.

Python's standard library has no websocket client, so this file carries a
small RFC 6455 client (text frames, masking, fragmentation, ping/pong,
close) and a CDP session on top of it.  Used by the browser tests, e.g.
tests/integration/test_vnc_novnc.py:

    with Chromium(session, url) as chrome:
        page = chrome.page()
        value = page.evaluate("document.title")

Chromium runs headless as root (hence --no-sandbox), with a fresh profile
in the session's temporary directory and --remote-debugging-port=0; the
port it picked is read from DevToolsActivePort in the profile.
"""

import base64
import hashlib
import json
import os
import socket
import struct
import time
import urllib.request
from pathlib import Path

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class WebSocketError(Exception):
    pass


class WebSocket:
    """A blocking RFC 6455 client for ws:// URLs."""

    def __init__(self, url, timeout=10):
        if not url.startswith("ws://"):
            raise WebSocketError("only ws:// URLs: %r" % url)
        rest = url[5:]
        hostport, _, path = rest.partition("/")
        host, _, port = hostport.rpartition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16))
        request = ("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
                   "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n" % (
                       path, hostport, key.decode()))
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise WebSocketError("connection closed during the handshake")
            head += chunk
        head, _, self.buf = head.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise WebSocketError("handshake refused: %s" % lines[0])
        accept = base64.b64encode(hashlib.sha1(key + _GUID).digest()).decode()
        headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip()
                   for l in lines[1:] if ":" in l}
        if headers.get("sec-websocket-accept") != accept:
            raise WebSocketError("bad Sec-WebSocket-Accept")

    def _recv(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(max(65536, n - len(self.buf)))
            if not chunk:
                raise WebSocketError("connection closed")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def _send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i & 3] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode())

    def recv(self, timeout=None):
        """The next text (or binary) message, as str."""
        self.sock.settimeout(timeout)
        message = b""
        while True:
            b0, b1 = self._recv(2)
            opcode = b0 & 0x0f
            n = b1 & 0x7f
            if n == 126:
                (n,) = struct.unpack(">H", self._recv(2))
            elif n == 127:
                (n,) = struct.unpack(">Q", self._recv(8))
            mask = self._recv(4) if b1 & 0x80 else None
            payload = self._recv(n)
            if mask:
                payload = bytes(b ^ mask[i & 3] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise WebSocketError("closed by peer")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            message += payload
            if b0 & 0x80:
                return message.decode("utf-8", "replace")

    def close(self):
        try:
            self._send_frame(0x8, b"")
        except OSError:
            pass
        self.sock.close()


class CDPError(Exception):
    pass


class Page:
    """One page target: call(method, **params) and evaluate(expression)."""

    def __init__(self, ws_url):
        self.ws = WebSocket(ws_url)
        self.next_id = 1
        self.events = []

    def call(self, method, timeout=30, **params):
        msg_id = self.next_id
        self.next_id += 1
        self.ws.send(json.dumps({"id": msg_id, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPError("no answer to %s within %ss" % (method, timeout))
            msg = json.loads(self.ws.recv(timeout=left))
            if msg.get("id") == msg_id:
                if "error" in msg:
                    raise CDPError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def evaluate(self, expression, timeout=30):
        """The value of a JavaScript expression (promises are awaited)."""
        res = self.call("Runtime.evaluate", timeout=timeout, expression=expression,
                        returnByValue=True, awaitPromise=True, userGesture=True)
        if "exceptionDetails" in res:
            raise CDPError("exception in %r: %s" % (
                expression[:80], json.dumps(res["exceptionDetails"])[:1000]))
        return res["result"].get("value")

    def close(self):
        self.ws.close()


CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--no-default-browser-check", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--password-store=basic",
    "--remote-debugging-port=0", "--window-size=1280,900",
]


class Chromium:
    """Headless Chromium started through a harness Session (so the harness
    logs and kills it)."""

    def __init__(self, session, url, chromium="chromium", timeout=30, flags=()):
        self.session = session
        self.url = url
        self.chromium = chromium
        self.timeout = timeout
        self.flags = list(flags)  # more command-line flags
        self.profile = Path(session.tmp) / ("chromium-%d" % next(session._counter))

    def __enter__(self):
        self.profile.mkdir()
        argv = [self.chromium] + CHROMIUM_FLAGS + self.flags + [
            "--user-data-dir=%s" % self.profile, self.url]
        self.client = self.session.spawn(argv, name="chromium")
        self.port = self.session.wait_for(self._devtools_port, self.timeout,
                                          "Chromium's DevTools port")
        return self

    def __exit__(self, *exc):
        self.client.kill()
        return False

    def _devtools_port(self):
        from harness import NotYet, TestFailure
        if not self.client.alive():
            raise TestFailure("chromium exited with %s; log:\n%s" % (
                self.client.proc.returncode, self.client.log()[-3000:]))
        try:
            first = (self.profile / "DevToolsActivePort").read_text().split()[0]
        except (OSError, IndexError):
            raise NotYet("no DevToolsActivePort yet")
        return int(first)

    def targets(self):
        with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % self.port,
                                    timeout=10) as r:
            return json.loads(r.read().decode())

    def page(self):
        """A CDP session on the first page target."""
        from harness import NotYet

        def find():
            pages = [t for t in self.targets() if t.get("type") == "page"
                     and t.get("webSocketDebuggerUrl")]
            if not pages:
                raise NotYet("no page target yet")
            return pages[0]
        target = self.session.wait_for(find, self.timeout, "a page in Chromium")
        return Page(target["webSocketDebuggerUrl"])
