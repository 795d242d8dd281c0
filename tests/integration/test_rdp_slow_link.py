#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""H.264 on a slow link: frames get coarser rather than queued.

oriel serves RDP on one side of a veth pair; oriel-test-rdpclient (AVC420)
runs in a network namespace on the other side. bench/apps/animate repaints
the whole screen at 60 fps with fresh grain (--noise: H.264 needs its whole
rate cap for it), its frame counter in its pixels, and logs when it drew
each frame. First the link is unlimited: the client reads frame numbers
and the bytes they took (about 3 Mbit/s on a quiet machine). Then the link
to the client is limited to half of what it carried, at least 0.7 Mbit/s
(above oriel's lowest rate) (tc tbf), and a new client connects. After SETTLE
seconds of full-screen motion, for the rest of MOTION:
- the client still reads new frame numbers, every second;
- what it shows is recent: from each frame's drawing to the client's
  picture of it is under LAG_BOUND (no queue growing in front of the link);
- a frame costs fewer bytes than on the unlimited link (oriel lowered its
  rate rather than sending the same frames less often, as it does when
  it cannot see the link's queue).
Then the app stands still (SIGUSR1): the grain H.264 left coarse is refined
losslessly, 12 KB a tile, in pieces the link carries: the first reaches the
client within REFINED_WITHIN of the last moving frame (sent whole, the
first 128 tiles took 8 s on this link). The app moves again: a new frame
number within FRESH_EVERY, not queued behind the rest of the refinement.
"""
import mmap
import re
import signal
import statistics
import time
import struct
import tempfile
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect
from slow_link import SlowLink
from test_rdp_stalled_client import build_animate

OUTPUT = (1024, 768)
FPS = 60
PASSWORD = "slow-Link-5521"
# The slow link: this share of what the unlimited one carried, at least RATE_MIN_KBIT.
RATE_SHARE = 0.5
RATE_MIN_KBIT = 700
MOTION = 14.0     # seconds of motion through the slow link, measured ...
SETTLE = 10.0     # ... after this many of them
BASELINE = 6.0    # seconds measured on the unlimited link
LAG_BOUND = 1.0   # seconds
FRESH_EVERY = 1.0  # at least one new frame number a second
COARSER = 0.75    # bytes per frame on the slow link, at most this share
REFINED_WITHIN = 1.0  # seconds from the last moving frame to the first refinement


def animate_args(app):
    return ["--size", "%dx%d" % OUTPUT, "--fps", str(FPS), "--noise", "--log", app.path]


class AppLog:
    """animate --log: CLOCK_MONOTONIC ns at which frame n was drawn."""

    def __init__(self, path):
        self.path = path

    def drawn(self, n):
        with open(self.path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            t, = struct.unpack_from("=Q", m, n * 8)
        return t


def counters(client, mark=0):
    """(frame number, client's time ns, bytes received) of each new frame
    number the client read."""
    out = []
    for line in client.lines_since(mark, "counter"):
        _, n, t, nbytes = line.split()
        out.append((int(n), int(t), int(nbytes)))
    return out


def paints(client):
    """(bytes received, client's time ns) at the end of each paint."""
    return [(int(l.split()[2]), int(l.split()[3])) for l in client.lines_since(0, "frame")]


def watch(s, client, app, seconds, skip, what):
    """Let the client watch the motion for `seconds` after its first frame
    number; measure the part after `skip` seconds: (frame numbers read,
    their lags in s, bytes per frame painted, largest gap between new
    numbers in s)."""
    client.wait_connected()
    client.wait_line(lambda l: l == "codec gfx-avc420", what="%s: a frame in AVC420" % what)
    first = s.wait_for(lambda: counters(client) or NotYet("no frame number read"),
                       what="%s: a first frame number" % what)[0]
    start, end = first[1] + int(skip * 1e9), first[1] + int(seconds * 1e9)

    def watched():
        got = counters(client)
        if got[-1][1] < end:
            raise NotYet("%.1f s of %.1f watched, %d frame numbers"
                         % ((got[-1][1] - first[1]) / 1e9, seconds, len(got)))
        return got
    got = s.wait_for(watched, timeout=seconds + 30, what="%s: %.0f s of motion" % (what, seconds))
    # The last frame before the window gives its bytes' start.
    before = [c for c in got if c[1] < start]
    window = [c for c in got if start <= c[1] <= end]
    expect(before and len(window) >= 2,
           "%s: %d frame numbers read in the measured %.0f s" % (what, len(window), seconds - skip))
    lags = [(t - app.drawn(n)) / 1e9 for n, t, _ in window]
    painted = [p for p in paints(client) if p[1] <= end]
    counted = [p for p in painted if p[1] >= start]
    per_frame = (counted[-1][0] - [p for p in painted if p[1] < start][-1][0]) / len(counted)
    times = [before[-1][1]] + [t for _, t, _ in window] + [end]
    gap = max(b - a for a, b in zip(times, times[1:])) / 1e9
    numbers = [n for n, _, _ in window]
    expect(numbers == sorted(numbers), "%s: frame numbers went back: %s" % (what, numbers))
    harness.log("%s: %d frame numbers read in %.0f s (%.1f/s; %d frames painted), lag "
                "median %.3f s max %.3f s, %.0f bytes a frame, longest wait for a new "
                "frame number %.2f s"
                % (what, len(window), seconds - skip, len(window) / (seconds - skip),
                   len(counted), statistics.median(lags), max(lags), per_frame, gap))
    return window, lags, per_frame, gap


def still_then_moving(s, app_proc, client, rate):
    """The app (app_proc, animate) pauses and resumes while client watches
    through the slow link."""
    mark = len(app_proc.log())
    app_proc.proc.send_signal(signal.SIGUSR1)

    def paused_at():
        m = re.search(r"paused at frame (\d+)", app_proc.log()[mark:])
        return int(m.group(1)) if m else NotYet("the app has not paused yet")
    last = s.wait_for(paused_at, what="the app to pause")
    shown = s.wait_for(lambda: [t for n, t, _ in counters(client) if n == last] or
                       NotYet("frame %d not read yet" % last),
                       what="%s link: the last moving frame" % rate)[0]
    refined = s.wait_for(lambda: [t for _, t in paints(client) if t > shown] or
                         NotYet("no paint since the last moving frame"),
                         timeout=harness.T(30), what="%s link: a refinement" % rate)[0]
    app_proc.proc.send_signal(signal.SIGUSR1)
    resumed = time.monotonic_ns()
    moving = s.wait_for(lambda: [t for n, t, _ in counters(client) if n > last] or
                        NotYet("no new frame number since the pause"),
                        timeout=harness.T(30), what="%s link: motion again" % rate)[0]
    harness.log("%s link, still then moving: first refinement %.2f s after the last "
                "moving frame, a new frame number %.2f s after the app moved again"
                % (rate, (refined - shown) / 1e9, (moving - resumed) / 1e9))
    expect((refined - shown) / 1e9 <= REFINED_WITHIN,
           "%s link: the first refinement came %.2f s after the last moving frame"
           % (rate, (refined - shown) / 1e9))
    expect((moving - resumed) / 1e9 <= FRESH_EVERY,
           "%s link: the client waited %.2f s for motion after the app moved again"
           % (rate, (moving - resumed) / 1e9))


def coarser_not_queued(s, link, app, client, app_proc=None):
    """The unlimited link, then the slow one: client(name) connects a
    counting client through link; s waits (a Session or a gateway Front).
    With app_proc (animate, which s started), the app then stands still and
    moves again (still_then_moving)."""
    fast = client("unlimited")
    window, _, fast_bytes, _ = watch(s, fast, app, BASELINE + 2, 2, "unlimited link")
    fast.close()
    kbit = fast_bytes * len(window) / BASELINE * 8 / 1e3
    rate_kbit = max(RATE_MIN_KBIT, int(kbit * RATE_SHARE))
    expect(kbit > rate_kbit * 1.25,
           "the unlimited link carried only %.0f kbit/s: %d kbit/s would not be behind (a "
           "machine too busy to encode and decode %d frames a second?)" % (kbit, rate_kbit, FPS))
    rate = "%dkbit" % rate_kbit
    link.limit(rate)
    slow = client("slow")
    _, lags, slow_bytes, gap = watch(s, slow, app, MOTION, SETTLE, "%s link" % rate)
    expect(gap <= FRESH_EVERY,
           "%s link: the client waited %.2f s for a new frame" % (rate, gap))
    expect(max(lags) < LAG_BOUND,
           "%s link: after %.0f s of motion the client's picture lagged the app by "
           "up to %.2f s (median %.2f s)" % (rate, SETTLE, max(lags), statistics.median(lags)))
    expect(slow_bytes <= COARSER * fast_bytes,
           "%s link: %.0f bytes a frame, the unlimited link %.0f: frames did not "
           "get coarser" % (rate, slow_bytes, fast_bytes))
    if app_proc is not None:
        still_then_moving(s, app_proc, slow, rate)
    slow.close()


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-slow-") as d, SlowLink() as link:
        d = Path(d)
        users = vnc.write_users_file(d, [("ines", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["%dx%d" % OUTPUT],
                     args=["--rdp", "%s:%d" % (link.server, port), "--rdp-users", str(users),
                           "--rdp-codec", "avc420"]) as s:
            s.wait_for(lambda: ("RDP: listening on %s:%d" % (link.server, port)) in s.log_text(),
                       what="oriel to listen on the link")
            s.park_pointer()
            secret = rdp.write_secret(s, PASSWORD)
            app = AppLog(str(d / "frames.log"))
            app_proc = s.spawn_x([build_animate(d)] + animate_args(app))

            def client(name):
                return rdp.RdpClient(s, port, name=name, user="ines", password_file=secret,
                                     size=OUTPUT, gfx="avc420", link=link,
                                     extra=["--counter", "--no-rects"])
            coarser_not_queued(s, link, app, client, app_proc)
            s.check_alive()


if __name__ == "__main__":
    harness.run(main)
