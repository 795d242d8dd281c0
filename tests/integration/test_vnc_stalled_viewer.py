#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A viewer that stops reading never holds oriel up.

A raw RFB client on a 1920x1080 session asks for whole Raw framebuffers
(8 MB each, far more than the socket buffers hold) and then reads nothing.
While it sits there the test animates the screen: it moves a large
window back and forth with `orielctl move`, and after each move a second,
real viewer (libvncclient) must show the window at its new place, and
every orielctl call must answer within a generous bound.  The stalled
client must still be connected (oriel buffers for it; it does not wait
for it, and does not throw it out for being slow).

Then the stalled client starts reading: it must receive whole, well-formed
updates whose pixels show the window where it is now, so it recovered.
It disconnects, and oriel goes on serving the other viewer.
"""
import socket
import struct
import time

import harness
import vnc
from harness import NotYet, Session, T, TestFailure, expect, expect_eq

SIZE = (1920, 1080)
WINDOW = (900, 700)
PLACES = [(40, 40), (960, 300)]
RED = (0xd0, 0x20, 0x20)
MOVES = 10
# Far above what a move and one orielctl round trip take, far below the
# seconds libvncserver waits for a peer that does not read.
PROMPT = 3.0


class RawViewer:
    """An RFB client on a raw socket that speaks Raw encoding only."""

    def __init__(self, address):
        self.sock, self.width, self.height, _ = vnc.rfb_handshake(address)
        # 32 bpp, depth 24, little endian, true colour, R at 16, G at 8, B at 0.
        fmt = struct.pack(">BBBBHHHBBB3x", 32, 24, 0, 1, 255, 255, 255, 16, 8, 0)
        self.sock.sendall(struct.pack(">B3x", 0) + fmt)
        self.sock.sendall(struct.pack(">BxHi", 2, 1, 0))  # SetEncodings: Raw
        self.fb = bytearray(self.width * self.height * 4)
        self.updates = 0

    def request(self, incremental):
        self.sock.sendall(struct.pack(">BBHHHH", 3, 1 if incremental else 0,
                                      0, 0, self.width, self.height))

    def read_message(self, timeout):
        (kind,) = struct.unpack("B", vnc.recv_exactly(self.sock, 1, timeout))
        if kind == 2:  # Bell
            return
        if kind == 3:  # ServerCutText
            (n,) = struct.unpack(">3xI", vnc.recv_exactly(self.sock, 7, timeout))
            vnc.recv_exactly(self.sock, n, timeout)
            return
        expect(kind == 0, "unexpected server message type %d" % kind)
        (nrects,) = struct.unpack(">xH", vnc.recv_exactly(self.sock, 3, timeout))
        for _ in range(nrects):
            x, y, w, h, enc = struct.unpack(">HHHHi", vnc.recv_exactly(self.sock, 12, timeout))
            expect(enc == 0, "encoding %d in an update for a Raw-only client" % enc)
            expect(x + w <= self.width and y + h <= self.height,
                   "rectangle %r outside the framebuffer" % ((x, y, w, h),))
            data = vnc.recv_exactly(self.sock, w * h * 4, timeout)
            for row in range(h):
                start = ((y + row) * self.width + x) * 4
                self.fb[start:start + w * 4] = data[row * w * 4:(row + 1) * w * 4]
        self.updates += 1

    def pixel(self, x, y):
        b, g, r, _ = self.fb[(y * self.width + x) * 4:(y * self.width + x) * 4 + 4]
        return (r, g, b)

    def close(self):
        self.sock.close()


def timed_orielctl(s, *args):
    start = time.monotonic()
    s.orielctl(*args)
    took = time.monotonic() - start
    expect(took < T(PROMPT), "orielctl %s took %.2fs while a viewer is stalled"
           % (" ".join(str(a) for a in args), took))


def wait_clients(s, n, what):
    def listed():
        c = s.orielctl("vnc", "clients", json=True)
        if len(c) != n:
            raise NotYet("clients: %r" % (c,))
        return c
    return s.wait_for(listed, what=what)


def centre(place):
    return (place[0] + WINDOW[0] // 2, place[1] + WINDOW[1] // 2)


def main():
    port = vnc.free_port()
    with Session(outputs=["%dx%d" % SIZE], args=vnc.vnc_args(port)) as s:
        vnc.wait_listening(s, vnc.tcp(port))
        _, win = s.colour_window_at(RED, WINDOW, PLACES[0], "mover", "org.oriel.mover")

        stalled = RawViewer(vnc.tcp(port))
        expect_eq((stalled.width, stalled.height), SIZE, "framebuffer size")
        for _ in range(4):
            stalled.request(incremental=False)
        for _ in range(4):
            stalled.request(incremental=True)
        # It now reads nothing until the screen has changed many times.

        v = vnc.Viewer(s, vnc.tcp(port), encodings="raw")
        v.wait_connected()
        wait_clients(s, 2, "both viewers listed")

        for i in range(MOVES):
            place = PLACES[(i + 1) % len(PLACES)]
            old = centre(PLACES[i % len(PLACES)])
            new = centre(place)
            timed_orielctl(s, "move", win["id"], *place)
            start = time.monotonic()

            def moved(img):
                if img.pixel(*new)[:3] != RED or img.pixel(*old)[:3] == RED:
                    raise NotYet("centre %r is #%s, old centre %r is #%s" % (
                        new, harness.colour_hex(img.pixel(*new)), old,
                        harness.colour_hex(img.pixel(*old))))
                return img
            v.wait_framebuffer(moved, timeout=10,
                               what="move %d: the window at %r" % (i + 1, place))
            took = time.monotonic() - start
            expect(took < T(PROMPT) * 2, "move %d took %.2fs to reach the "
                   "second viewer while one is stalled" % (i + 1, took))
        clients = s.orielctl("vnc", "clients", json=True)
        expect_eq(len(clients), 2, "viewers connected after the moves, the "
                  "stalled one included (%r)" % (clients,))

        # The stalled client reads again: it must catch up with whole
        # updates and see the window where it is now.
        final = PLACES[MOVES % len(PLACES)]
        fx, fy = centre(final)
        deadline = time.monotonic() + T(60)
        while stalled.pixel(fx, fy) != RED or stalled.updates < 2:
            if time.monotonic() > deadline:
                raise TestFailure("the formerly stalled viewer did not catch up: "
                                  "%d updates, pixel at %r is %r" % (
                                      stalled.updates, (fx, fy), stalled.pixel(fx, fy)))
            try:
                stalled.read_message(timeout=10)
            except socket.timeout:
                stalled.request(incremental=True)
                continue
            stalled.request(incremental=True)
        s.check_alive()

        # And it keeps up with new changes.
        back = PLACES[(MOVES + 1) % len(PLACES)]
        bx, by = centre(back)
        timed_orielctl(s, "move", win["id"], *back)
        while stalled.pixel(bx, by) != RED:
            if time.monotonic() > deadline:
                raise TestFailure("the recovered viewer did not get the last move")
            stalled.read_message(timeout=10)
            stalled.request(incremental=True)
        stalled.close()

        wait_clients(s, 1, "the raw client to be gone")
        timed_orielctl(s, "move", win["id"], *PLACES[0])
        v.wait_colour((centre(PLACES[0])[0] - 4, centre(PLACES[0])[1] - 4, 8, 8), RED,
                      what="the other viewer to go on after the raw client left")


if __name__ == "__main__":
    harness.run(main)
