#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Without a client in its session, the RDP server keeps no copy of the
desktop, and the next client still gets the whole picture.

oriel serves RDP (a users file) on a 1920x1080 output with a colour
window; its copy of the desktop is 1920x1088x4 bytes (8 MiB). Two
clients (oriel-test-rdpclient, watching) log on, then leave one after the
other; oriel's anonymous memory is read with two clients, with one, and
with none (`orielctl rdp clients` says when each has gone):
- the last client's leaving gives back at least 6 MiB more than the
  first's: the copy goes with the last client only (it is a mapping of
  its own, so this holds under the sanitizers too, whose allocator keeps
  what is freed);
- a second window, opened while nobody watched, is in the next client's
  first complete picture, which equals oriel's own screenshot pixel for
  pixel (classic bitmaps are lossless): the copy taken again is filled
  from the whole screen before anything is sent.
"""
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect, expect_eq

OUTPUT = (1920, 1080)
FIRST = (0x20, 0xa0, 0x60)
SECOND = (0xd0, 0x40, 0x30)
PASSWORD = "unviewed-Pass-4417"
MIB = 1024 * 1024
MARGIN = 6 * MIB


def anonymous_bytes(pid):
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            if line.startswith("Anonymous:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no Anonymous: line for pid %d" % pid)


def shows(colour, pos, size):
    def check(img):
        inner = (pos[0] + 2, pos[1] + 2, size[0] - 4, size[1] - 4)
        n = img.count_colour(inner, colour, tolerance=0)
        if n < inner[2] * inner[3]:
            raise harness.NotYet("%d of %d pixels are #%s: %s" % (
                n, inner[2] * inner[3], harness.colour_hex(colour), img.describe(inner)))
        return img
    return check


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-unviewed-") as d:
        users = vnc.write_users_file(Path(d), [("dana", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["%dx%d" % OUTPUT],
                     args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            s.colour_window_at(FIRST, (300, 200), (100, 100), "first", "org.oriel.test.first")
            rdp.wait_listening(s, port)
            pointer_box = s.park_pointer()
            pid = s.oriel.pid
            secret = rdp.write_secret(s, PASSWORD)
            account = dict(user="dana", password_file=secret, size=OUTPUT)

            before = anonymous_bytes(pid)
            clients = []
            for name in ("one", "two"):
                client = rdp.RdpClient(s, port, name=name, **account)
                expect_eq(client.wait_connected()[:2], OUTPUT, "%s's desktop" % name)
                client.wait_framebuffer(shows(FIRST, (100, 100), (300, 200)),
                                        what="the first window")
                clients.append(client)
            with_two = anonymous_bytes(pid)
            clients[1].kill()
            s.wait_for(lambda: len(s.orielctl("rdp", "clients", json=True)) == 1,
                       what="the second client to be gone")
            with_one = anonymous_bytes(pid)
            clients[0].kill()
            s.wait_for(lambda: s.orielctl("rdp", "clients", json=True) == [],
                       what="the first client to be gone")
            with_none = anonymous_bytes(pid)
            harness.log("oriel's anonymous memory, MiB: %.1f before any client, %.1f with "
                        "two, %.1f with one, %.1f with none" % (
                            before / MIB, with_two / MIB, with_one / MIB, with_none / MIB))
            first_gone, last_gone = with_two - with_one, with_one - with_none
            expect(last_gone - first_gone >= MARGIN,
                   "the last client's leaving gave back %.1f MiB, the first's %.1f" % (
                       last_gone / MIB, first_gone / MIB))

            s.colour_window_at(SECOND, (320, 240), (700, 400), "second", "org.oriel.test.second")
            s.park_pointer()
            rc, img, lines = rdp.rdpclient_snapshot(s, port, **account)
            expect(rc == 0, "the next client failed (%d):\n%s" % (rc, "\n".join(lines[-20:])))
            shows(FIRST, (100, 100), (300, 200))(img)
            shows(SECOND, (700, 400), (320, 240))(img)
            vnc.expect_same_pixels(img, s.screenshot(), exclude=pointer_box,
                                   what="the next client's first picture")


if __name__ == "__main__":
    harness.run(main)
