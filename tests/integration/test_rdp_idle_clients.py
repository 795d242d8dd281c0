#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two RDP clients on an idle session cost oriel nothing (issue test 8).

Two oriel-test-rdpclient clients (one with classic bitmaps, one asking for
the graphics pipeline) are logged on, have decoded the static colour
window and got nothing more for a second (the pipeline's lossless
refinement of its first frames has come). Then, over a 10 s window, oriel's CPU time (utime + stime of all
its threads, /proc/PID/stat) stays under 1 % of a core, and neither client
decodes a paint or receives a byte.
"""
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect

COLOUR = (0x20, 0xa0, 0x60)
POS, SIZE = (240, 160), (300, 200)
WINDOW = 10.0
MAX_CPU = 0.01
PASSWORD = "idle2-Pass-1618"


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-idle2-") as d:
        users = vnc.write_users_file(Path(d), [("idler", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["1024x768"], args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            s.colour_window_at(COLOUR, SIZE, POS, "colour", "org.oriel.test.g")
            rdp.wait_listening(s, port)
            s.park_pointer()
            secret = rdp.write_secret(s, PASSWORD)
            clients = [rdp.RdpClient(s, port, name="idle-%s" % gfx, user="idler",
                                     password_file=secret, size=(1024, 768), gfx=gfx)
                       for gfx in ("off", "avc420")]
            window = (POS[0] + 10, POS[1] + 10, SIZE[0] - 20, SIZE[1] - 20)
            for c in clients:
                c.wait_connected()
                c.wait_colour(window, COLOUR, tolerance=16, what="the colour window")
                rdp.wait_settled(s, c)
            before = [c.stats() for c in clients]
            marks = [c.mark() for c in clients]
            cpu, wakeups = harness.idle_cost(s.oriel.pid, WINDOW)
            after = [c.stats() for c in clients]
            s.check_alive()
            harness.log("idle with 2 RDP clients over %.0fs: %.2f%% CPU, %d wakeups" % (
                WINDOW, 100 * cpu, wakeups))
            for c, b, a, m in zip(clients, before, after, marks):
                expect(c.alive(), "%s disconnected" % c.name)
                expect(a["paints"] == b["paints"] and not c.lines_since(m, "frame"),
                       "%s decoded %d paints while idle" % (c.name, a["paints"] - b["paints"]))
                expect(a["bytes"] == b["bytes"], "%s received %d bytes while idle" % (
                    c.name, a["bytes"] - b["bytes"]))
            expect(cpu < MAX_CPU, "oriel used %.2f%% CPU over %.0fs while idle with 2 RDP "
                   "clients" % (100 * cpu, WINDOW))
            for c in clients:
                c.close()


if __name__ == "__main__":
    harness.run(main)
