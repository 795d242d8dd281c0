#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Malformed RFB from one viewer disconnects that viewer only.

A good viewer (oriel-test-vncviewer) stays connected throughout.  For each
case a raw socket connects, does the handshake where the case needs it,
and sends bad bytes: garbage versions and security types, unknown message
types, impossible pixel formats, oversized and negative cut-text lengths,
absurd SetDesktopSize and update requests, truncated messages, a client
that vanishes in the middle of a 3 MB update, and every file of the RFB
fuzz corpus (tests/fuzz/corpus/rfb: client-to-server bytes after
ServerInit).  Where the protocol leaves no doubt the server must close
the connection itself; in every case oriel must stay up and the good
viewer must still get a fresh full frame afterwards.  No hand-written
case may change the output's size (they are all invalid requests).
"""
import socket
import struct

import harness
import vnc
from harness import REPO, Session, expect

CORPUS = REPO / "tests" / "fuzz" / "corpus" / "rfb"


def pixel_format(bpp, depth, big, true_colour, rmax, gmax, bmax, rs, gs, bs):
    return struct.pack(">BBBBHHHBBB3x", bpp, depth, big, true_colour,
                       rmax, gmax, bmax, rs, gs, bs)


# (name, handshake?, bytes, the server must close the connection)
CASES = [
    ("garbage version", False, b"HELLO WORLD\n" + b"\xff" * 64, True),
    ("unknown message type", True, b"\xfe" + b"\x00" * 31, True),
    ("pixel format 7 bpp", True,
     b"\x00\x00\x00\x00" + pixel_format(7, 7, 0, 1, 255, 255, 255, 16, 8, 0), True),
    ("cut text 2 GiB", True, b"\x06\x00\x00\x00" + struct.pack(">I", 0x7fffffff)
     + b"x" * 64, True),
    ("cut text negative length", True, b"\x06\x00\x00\x00" +
     struct.pack(">I", 0x80000000) + b"\x00" * 64, True),
    ("set encodings truncated", True, b"\x02\x00\xff\xff" + b"\x00\x00\x00\x00" * 3, False),
    ("huge update request", True,
     b"\x03\x00" + struct.pack(">HHHH", 65000, 65000, 65535, 65535), False),
    ("zero-area update request", True, b"\x03\x01" + struct.pack(">HHHH", 0, 0, 0, 0), False),
    ("set desktop size 0x0", True, b"\xfb\x00" + struct.pack(">HHBx", 0, 0, 1) +
     struct.pack(">IHHHHI", 0, 0, 0, 0, 0, 0), False),
    ("set desktop size 0 screens", True, b"\xfb\x00" + struct.pack(">HHBx", 800, 600, 0),
     False),
    ("set desktop size 65535 screens", True,
     b"\xfb\x00" + struct.pack(">HHBx", 640, 480, 255) + b"\x00" * 64, False),
    ("set desktop size 65535x65535", True, b"\xfb\x00" +
     struct.pack(">HHBx", 65535, 65535, 1) +
     struct.pack(">IHHHHI", 0, 0, 0, 65535, 65535, 0), False),
    ("keysym 0xffffffff and 0", True,
     b"\x04\x01\x00\x00\xff\xff\xff\xff" + b"\x04\x00\x00\x00\xff\xff\xff\xff" +
     b"\x04\x01\x00\x00\x00\x00\x00\x00" + b"\x04\x00\x00\x00\x00\x00\x00\x00", False),
    ("truncated key event", True, b"\x04\x01\x00", False),
    ("file transfer message", True, b"\x07" + b"\xff" * 32, False),
    ("qemu message", True, b"\xff\x00" + b"\xff" * 16, False),
    ("xvp message", True, b"\xfa\x00\x01\x02", False),
]


def security_case(address):
    """Ask for a security type the server did not offer."""
    s = vnc._connect(address, harness.T(10))
    vnc.recv_exactly(s, 12)
    s.sendall(b"RFB 003.008\n")
    (n,) = struct.unpack("B", vnc.recv_exactly(s, 1))
    offered = vnc.recv_exactly(s, n) if n else b""
    bad = next(t for t in range(200, 256) if t not in offered)
    s.sendall(bytes([bad]))
    return s


def run_case(s, address, name, handshake, data, must_close, good):
    if handshake:
        sock, w, h, _ = vnc.rfb_handshake(address)
    else:
        sock = vnc._connect(address, harness.T(10))
    try:
        try:
            sock.sendall(data)
        except OSError:
            pass  # closed while we were still sending: fine
        if must_close:
            expect(vnc.closed_by_peer(sock, 10),
                   "%s: the server kept the connection open" % name)
    finally:
        sock.close()
    s.check_alive()
    mark = good.mark()
    good.send("full")
    good.wait_line("frame", since=mark, what="a full frame after case %r" % name)


def main():
    port = vnc.free_port()
    address = vnc.tcp(port)
    with Session(outputs=["1024x768"], args=vnc.vnc_args(port)) as s:
        vnc.wait_listening(s, address)
        good = vnc.Viewer(s, address, name="good", encodings="tight")
        good.wait_connected()
        good.wait_line("frame")

        sock = security_case(address)
        try:
            expect(vnc.closed_by_peer(sock, 10),
                   "unoffered security type: the server kept the connection open")
        finally:
            sock.close()

        for name, handshake, data, must_close in CASES:
            harness.log("case:", name)
            run_case(s, address, name, handshake, data, must_close, good)
            # None of these is a valid request to change anything.
            out = s.output()
            expect((out["width"], out["height"]) == (1024, 768),
                   "case %r changed the output to %dx%d" % (
                       name, out["width"], out["height"]))

        # A viewer that asks for a full raw frame and vanishes mid-update.
        sock, w, h, _ = vnc.rfb_handshake(address)
        sock.sendall(b"\x02\x00\x00\x01" + struct.pack(">i", 0) +
                     b"\x03\x00" + struct.pack(">HHHH", 0, 0, w, h))
        vnc.recv_exactly(sock, 1000)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # RST with most of the frame unsent
        mark = good.mark()
        good.send("full")
        good.wait_line("frame", since=mark, what="a frame after the mid-update reset")

        files = sorted(p for p in CORPUS.iterdir() if p.is_file()
                       and not p.name.startswith(".") and p.suffix != ".md")
        expect(files, "no RFB corpus in %s" % CORPUS)
        for path in files:
            harness.log("corpus:", path.name)
            run_case(s, address, "corpus " + path.name, True, path.read_bytes(),
                     False, good)

        # (The corpus holds valid SetDesktopSize requests too, so the size
        # may have changed; the good viewer must simply follow it.)
        expect(good.alive(), "the good viewer was disconnected")
        out = s.output()

        def follows():
            img = good.framebuffer()
            if (img.width, img.height) != (out["width"], out["height"]):
                raise harness.NotYet("viewer %dx%d, output %dx%d" % (
                    img.width, img.height, out["width"], out["height"]))
            return True
        s.wait_for(follows, what="the good viewer's size to follow the output")


if __name__ == "__main__":
    harness.run(main)
