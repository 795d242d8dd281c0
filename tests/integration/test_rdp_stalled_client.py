#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A client that stops reading gets no more frames; nothing piles up.

An X app repaints the whole screen 30 times a second; two xfreerdp
clients watch it. One is stopped (SIGSTOP): it takes nothing and
acknowledges nothing. For 5 s, oriel's memory does not grow with what
that client misses (frames go only after acknowledgements, and never
while FreeRDP's output buffer is full), the other client keeps showing
new frames, and oriel answers. Continued (SIGCONT), the stopped client
shows new frames again.
"""
import hashlib
import os
import signal
import tempfile
import time
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect

PASSWORD = "stall-Pass-9090"
SIZE = (800, 600)
ANIMATE = Path(__file__).resolve().parents[2] / "bench" / "apps" / "animate.c"


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def sanitized(pid):
    with open("/proc/%d/maps" % pid) as f:
        return "libasan" in f.read()


def build_animate(tmp):
    exe = tmp / "animate"
    cmd = "cc -O2 -o %s %s $(pkg-config --cflags --libs xcb xcb-shm)" % (exe, ANIMATE)
    expect(os.system(cmd) == 0, "cannot build %s" % ANIMATE)
    return str(exe)


def frame_digest(xvfb, client):
    x, y, w, h, _ = client.window()
    img = xvfb.screen()
    rect = img.clip((x, y, min(w, SIZE[0]), min(h, SIZE[1])))
    data = bytes(v for _, px in img.pixels(rect) for v in px)
    return hashlib.sha1(data).hexdigest()


def shows_new_frames(s, xvfb, client, what):
    first = frame_digest(xvfb, client)

    def changed():
        if frame_digest(xvfb, client) == first:
            raise NotYet("%s still shows the same frame" % what)
        return True
    s.wait_for(changed, what="%s to show a new frame" % what)


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-stall-") as d:
        d = Path(d)
        animate = build_animate(d)
        users = vnc.write_users_file(d, [("watcher", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["%dx%d" % SIZE],
                     args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            s.spawn_x([animate, "--size", "%dx%d" % SIZE, "--fps", "30"])
            rdp.wait_listening(s, port)
            s.park_pointer()
            screens = [rdp.Xvfb(s) for _ in range(2)]
            clients = []
            try:
                for i, xvfb in enumerate(screens):
                    clients.append(rdp.XFreeRDP(s, xvfb, port, "watcher", PASSWORD,
                                                ["/size:%dx%d" % SIZE], name="watcher-%d" % i))
                for xvfb, c in zip(screens, clients):
                    shows_new_frames(s, xvfb, c, c.log_path.stem)
                stopped, running = clients
                os.killpg(stopped.proc.pid, signal.SIGSTOP)
                time.sleep(1)
                rss0 = rss_kib(s.oriel.pid)
                time.sleep(5)
                rss1 = rss_kib(s.oriel.pid)
                harness.log("oriel's RSS with a stopped client: %d KiB, 5 s later %d KiB" % (
                    rss0, rss1))
                shows_new_frames(s, screens[1], running, "the running client")
                s.orielctl("windows")
                # ASan's allocator keeps freed memory resident for a while (RSS
                # grew about 12 MiB here under ASan, and not at all in a plain
                # build), so the bound holds for plain builds only.
                if not sanitized(s.oriel.pid):
                    expect(rss1 - rss0 < 8 * 1024, "oriel grew by %d KiB in 5 s for a "
                           "stopped client" % (rss1 - rss0))
                os.killpg(stopped.proc.pid, signal.SIGCONT)
                shows_new_frames(s, screens[0], stopped, "the continued client")
                expect(stopped.alive(), "the stopped client was disconnected")
            finally:
                for c in clients:
                    if c.alive():
                        os.killpg(c.proc.pid, signal.SIGCONT)
                    c.close()
                for xvfb in screens:
                    xvfb.close()


if __name__ == "__main__":
    harness.run(main)
