# SPDX-License-Identifier: MIT
"""A VNC client to run as another user (runuser): standard library only,
and importing nothing of the harness, so that a copy of it in a
world-readable folder runs as any uid.

    python3 peer_probe.py rfb HOST:PORT|PATH
    python3 peer_probe.py ws HOST:PORT
    python3 peer_probe.py blind HOST:PORT
    python3 peer_probe.py wstypes HOST:PORT
    PROBE_USER=.. PROBE_PASSWORD=.. python3 peer_probe.py wsplain HOST:PORT

It prints one line: `refused REASON` (RFB: no security types and the
reason; WebSocket: the HTTP status line and its body), `in WIDTHxHEIGHT`
(through security type None to the ServerInit, over WebSocket too), or
`error ...`. `wstypes` prints `types T1 T2 ...`, the security types offered over
WebSocket (or `refused ...`). `wsplain` logs in over WebSocket with
VeNCrypt's Plain sub-type, as noVNC does: `in WIDTHxHEIGHT`, `failed
REASON`, or `refused ...`. `blind` sends a whole login with None and a key press
without reading anything, closes its socket at once and prints `sent`.
"""

import base64
import os
import socket
import struct
import sys

TIMEOUT = 10


def connect(target):
    if target.startswith("/"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(TIMEOUT)
        s.connect(target)
        return s
    host, port = target.rsplit(":", 1)
    return socket.create_connection((host.strip("[]"), int(port)), TIMEOUT)


class Raw:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("closed after %r" % self.buf)
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def write(self, data):
        self.sock.sendall(data)


class WebSocket(Raw):
    """Binary frames: ours masked, the server's not."""

    def __init__(self, sock, rest):
        Raw.__init__(self, sock)
        self.wire = rest
        self.buf = b""

    def _wire(self, n):
        while len(self.wire) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("WebSocket closed")
            self.wire += chunk
        out, self.wire = self.wire[:n], self.wire[n:]
        return out

    def read(self, n):
        while len(self.buf) < n:
            b0, b1 = self._wire(2)
            length = b1 & 0x7F
            if length == 126:
                (length,) = struct.unpack(">H", self._wire(2))
            elif length == 127:
                (length,) = struct.unpack(">Q", self._wire(8))
            payload = self._wire(length)
            if b0 & 0x0F == 8:
                raise EOFError("WebSocket close frame")
            if b0 & 0x0F in (0, 1, 2):
                self.buf += payload
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def write(self, data):
        mask = os.urandom(4)
        header = bytes([0x82])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        else:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(header + mask + masked)


def rfb(stream):
    """The RFB 3.8 handshake with security type None, as far as it goes."""
    version = stream.read(12)
    if not version.startswith(b"RFB 003."):
        return "error no RFB greeting: %r" % version
    stream.write(b"RFB 003.008\n")
    (n,) = stream.read(1)
    if n == 0:
        (length,) = struct.unpack(">I", stream.read(4))
        return "refused " + stream.read(length).decode("utf-8", "replace")
    types = list(stream.read(n))
    if 1 not in types:
        return "error security type None not offered: %r" % types
    stream.write(b"\x01")
    (result,) = struct.unpack(">I", stream.read(4))
    if result != 0:
        return "error SecurityResult %d" % result
    stream.write(b"\x01")
    width, height = struct.unpack(">HH", stream.read(4))
    return "in %dx%d" % (width, height)


def security_types(stream):
    """The types offered after RFB 3.8's version; None: refused (stream.reason)."""
    version = stream.read(12)
    if not version.startswith(b"RFB 003."):
        raise EOFError("no RFB greeting: %r" % version)
    stream.write(b"RFB 003.008\n")
    (n,) = stream.read(1)
    if n == 0:
        (length,) = struct.unpack(">I", stream.read(4))
        stream.reason = stream.read(length).decode("utf-8", "replace")
        return None
    return list(stream.read(n))


def ws_types(stream):
    types = security_types(stream)
    if types is None:
        return "refused " + stream.reason
    return "types " + " ".join(str(t) for t in types)


def ws_plain(stream):
    """VeNCrypt 0.2 with the Plain sub-type (256), as noVNC logs in."""
    types = security_types(stream)
    if types is None:
        return "refused " + stream.reason
    if 19 not in types:
        return "error VeNCrypt not offered: %r" % types
    stream.write(b"\x13")
    if stream.read(2) != b"\x00\x02":
        return "error not VeNCrypt 0.2"
    stream.write(b"\x00\x02")
    ack, n = stream.read(2)
    subtypes = list(struct.unpack(">%dI" % n, stream.read(4 * n)))
    if ack != 0 or 256 not in subtypes:
        return "error Plain not offered: %r" % subtypes
    stream.write(struct.pack(">I", 256))
    user = os.environ["PROBE_USER"].encode()
    password = os.environ["PROBE_PASSWORD"].encode()
    stream.write(struct.pack(">II", len(user), len(password)) + user + password)
    (result,) = struct.unpack(">I", stream.read(4))
    if result != 0:
        (length,) = struct.unpack(">I", stream.read(4))
        return "failed " + stream.read(length).decode("utf-8", "replace")
    stream.write(b"\x01")
    width, height = struct.unpack(">HH", stream.read(4))
    return "in %dx%d" % (width, height)


def websocket(target, then=None):
    s = connect(target)
    key = base64.b64encode(os.urandom(16)).decode()
    # As noVNC on the session's own page asks.
    s.sendall(("GET /websockify HTTP/1.1\r\nHost: %s\r\nOrigin: http://%s\r\n"
               "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
               "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: binary\r\n\r\n"
               % (target, target, key)).encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status = head.split(b"\r\n")[0].decode("latin-1")
    if " 101 " not in status + " ":
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            rest += chunk
        body = rest.decode("utf-8", "replace").strip()
        return "refused %s: %s" % (status, body)
    return (then or rfb)(WebSocket(s, rest))


def blind(target):
    s = connect(target)
    key = struct.pack(">BBxxI", 4, 1, ord("x"))
    s.sendall(b"RFB 003.008\n" + b"\x01" + b"\x01" + key)
    s.close()
    return "sent"


def main():
    mode, target = sys.argv[1], sys.argv[2]
    try:
        if mode == "rfb":
            line = rfb(Raw(connect(target)))
        elif mode == "ws":
            line = websocket(target)
        elif mode == "wstypes":
            line = websocket(target, ws_types)
        elif mode == "wsplain":
            line = websocket(target, ws_plain)
        elif mode == "blind":
            line = blind(target)
        else:
            line = "error unknown mode %s" % mode
    except (OSError, EOFError) as e:
        line = "error %s" % e
    print(line, flush=True)


if __name__ == "__main__":
    main()
