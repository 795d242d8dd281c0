#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A graphics pipeline client that stops acknowledging frames gets no more.

An X app repaints the whole screen 30 times a second; two xfreerdp
clients watch it through the graphics pipeline with H.264
(`/gfx:avc420`). One is stopped (SIGSTOP): it reads nothing and
acknowledges no frame. oriel holds its frames with at most two
unacknowledged (its debug log says so, by the client's id from
`orielctl rdp clients`) and sends it none while the other client shows
20 new frames (counted by the test's own screenshots, which a loaded
machine takes slowly); oriel's memory does not grow with what the stopped one
misses. Continued (SIGCONT), the stopped client acknowledges, and shows
new frames again.
"""
import os
import re
import signal
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect
from test_rdp_stalled_client import (SIZE, build_animate, frame_digest, rss_kib,
                                     sanitized, shows_new_frames)

PASSWORD = "gfxstall-Pass-3131"


def shows_frames(s, xvfb, client, count, what):
    """Wait until client showed count distinct new frames."""
    seen = {frame_digest(xvfb, client)}

    def enough():
        seen.add(frame_digest(xvfb, client))
        if len(seen) <= count:
            raise NotYet("%s showed %d new frames" % (what, len(seen) - 1))
        return True
    s.wait_for(enough, what="%s to show %d new frames" % (what, count), timeout=60)


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-gfx-stall-") as d:
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
                ids = []
                for i, xvfb in enumerate(screens):
                    clients.append(rdp.XFreeRDP(s, xvfb, port, "watcher", PASSWORD,
                                                ["/size:%dx%d" % SIZE, "/gfx:avc420"],
                                                name="watcher-%d" % i))

                    def listed():
                        listing = s.orielctl("rdp", "clients", json=True)
                        if len(listing) != i + 1:
                            raise NotYet("clients: %r" % listing)
                        return listing[i]["id"]
                    ids.append(s.wait_for(listed, what="client %d to be listed" % i))
                for xvfb, c in zip(screens, clients):
                    shows_new_frames(s, xvfb, c, c.log_path.stem)
                expect(s.log_text().count("graphics pipeline 8.1, AVC420") == 2,
                       "the clients did not both get AVC420")
                stopped, running = clients
                hold = re.compile(r"RDP: client %d \(.*\) holds frames: (\d+) unacknowledged"
                                  % ids[0])
                go = "RDP: client %d (127.0.0.1) acknowledged frame" % ids[0]
                os.killpg(stopped.proc.pid, signal.SIGSTOP)
                shows_frames(s, screens[1], running, 10, "the running client")

                def held():
                    text = s.log_text()
                    m = None
                    for m in hold.finditer(text):
                        pass
                    if not m or go in text[m.end():]:
                        raise NotYet("oriel holds no frames for the stopped client")
                    return m
                m = s.wait_for(held, what="oriel to hold frames for the stopped client")
                expect(int(m.group(1)) <= 2, "%s frames went unacknowledged" % m.group(1))
                rss0 = rss_kib(s.oriel.pid)
                shows_frames(s, screens[1], running, 20, "the running client")
                rss1 = rss_kib(s.oriel.pid)
                harness.log("oriel's RSS with a stopped client: %d KiB, 20 frames later %d KiB"
                            % (rss0, rss1))
                if not sanitized(s.oriel.pid):
                    expect(rss1 - rss0 < 8 * 1024, "oriel grew by %d KiB while a client "
                           "acknowledged nothing" % (rss1 - rss0))
                s.orielctl("windows")
                expect(go not in s.log_text()[m.end():],
                       "oriel sent frames again to the stopped client")
                os.killpg(stopped.proc.pid, signal.SIGCONT)
                s.wait_for(lambda: go in s.log_text()[m.end():] or
                           (_ for _ in ()).throw(NotYet("no acknowledgement")),
                           what="the continued client to acknowledge its frames")
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
