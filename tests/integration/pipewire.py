# SPDX-License-Identifier: MIT
"""PipeWire for the pipewire suite: starts `pipewire` then `wireplumber` in
a Session's environment (its private XDG_RUNTIME_DIR and bus), and runs
the C consumer (ORIEL_TEST_PWCONSUMER) and orielctl casts.

    with Session() as s:
        pw = pipewire.start(s)
        cast = pipewire.Cast(s, "HEADLESS-1")     # orielctl cast start
        c = pipewire.Consumer(s, cast.node)
        c.wait_format(); c.wait_frames(1)
"""
import json
import os
import re
import signal
import time

import harness
from harness import NotYet, TestFailure, expect, exe, tool, T


class Daemons:
    def __init__(self, session):
        self.s = session
        self.pipewire = None
        self.wireplumber = None

    def start(self):
        s = self.s
        sock = s.runtime_dir / "pipewire-0"
        # A killed daemon leaves its socket behind: waiting for the file
        # must see the new daemon's.
        sock.unlink(missing_ok=True)
        self.pipewire = s.spawn([tool("pipewire")], name="pipewire")

        def up():
            if not self.pipewire.alive():
                raise TestFailure("pipewire exited: %s" % self.pipewire.log()[-2000:])
            if not sock.exists():
                raise NotYet("no %s yet" % sock)
            return True
        s.wait_for(up, T(10), "pipewire's socket")
        self.wireplumber = s.spawn([tool("wireplumber")], name="wireplumber")

        def wp_ready():
            if not self.wireplumber.alive():
                raise TestFailure("wireplumber exited: %s" % self.wireplumber.log()[-2000:])
            try:
                res = s.run_tool([tool("pw-dump")], check=False, timeout=5)
            except TestFailure as e:
                # pw-dump can hang on a daemon that is still starting: ask again.
                raise NotYet(str(e))
            if res.returncode != 0:
                raise NotYet("pw-dump: %s" % res.stderr.strip())
            if '"WirePlumber"' not in res.stdout:
                raise NotYet("wireplumber has not connected yet")
            return True
        s.wait_for(wp_ready, T(15), "wireplumber to connect")
        return self

    def stop(self):
        for c in (self.wireplumber, self.pipewire):
            if c and c.alive():
                c.kill(signal.SIGTERM)
                try:
                    c.proc.wait(T(5))
                except Exception:
                    c.kill(signal.SIGKILL)


def start(session):
    return Daemons(session).start()


class Cast:
    """`orielctl cast start --output NAME` (or window=ID, region=(x, y, w, h),
    virtual=(w, h), cursor="hidden"|"embedded"|"metadata"), running; .node
    is the node id."""

    def __init__(self, session, output=None, window=None, region=None, cursor=None,
                 virtual=None):
        self.s = session
        argv = [session.orielctl_exe, "--json", "cast", "start"]
        if output is not None:
            argv += ["--output", output]
        if window is not None:
            argv += ["--window", str(window)]
        if region is not None:
            argv += ["--region", ",".join(str(v) for v in region)]
        if virtual is not None:
            argv += ["--virtual", "%dx%d" % tuple(virtual)]
        if cursor is not None:
            argv += ["--cursor", cursor]
        self.client = session.spawn(argv, name="cast")

        def started():
            text = self.client.log()
            m = re.search(r'\{"cast_id":(\d+),"node_id":(\d+)\}', text)
            if m:
                return int(m.group(1)), int(m.group(2))
            if not self.client.alive():
                raise TestFailure("orielctl cast start failed: %s" % text)
            raise NotYet("no node id yet: %r" % text)
        self.id, self.node = session.wait_for(started, T(15), "the cast to start")

    def alive(self):
        return self.client.alive()


class Consumer:
    """oriel-test-pwconsumer on a node; parses its lines. size=(w, h): it
    accepts only that size."""

    def __init__(self, session, node, dump=True, size=None):
        self.s = session
        self.dir = session.tmp / ("pwframes-%d-%d" % (node, time.monotonic_ns()))
        self.dir.mkdir()
        argv = [exe("ORIEL_TEST_PWCONSUMER"), "--node", str(node)]
        if dump:
            argv += ["--dump-dir", str(self.dir)]
        if size is not None:
            argv += ["--size", "%dx%d" % tuple(size)]
        self.client = session.spawn(argv, name="pwconsumer")

    def lines(self):
        return self.client.log().splitlines()

    def frames(self):
        out = []
        for line in self.lines():
            p = line.split()
            if p and p[0] == "frame":
                n = int(p[5])
                rects = [tuple(int(v) for v in r.split(",")) for r in p[6:6 + max(n, 0)]]
                crop = None
                if "crop" in p[6 + max(n, 0):]:
                    i = p.index("crop", 6 + max(n, 0))
                    crop = tuple(int(v) for v in p[i + 1].split(","))
                cursor = None
                if "cursor" in p[6 + max(n, 0):]:
                    i = p.index("cursor", 6 + max(n, 0))
                    v = [int(x) for x in p[i + 1:i + 8]]
                    cursor = {"id": v[0], "position": (v[1], v[2]),
                              "hotspot": (v[3], v[4]), "bitmap": (v[5], v[6])}
                out.append({"seq": int(p[1]), "size": (int(p[2]), int(p[3])),
                            "damage": rects if n >= 0 else None,
                            "crop": crop, "cursor": cursor})
        return out

    def wait_format(self):
        def fmt():
            for line in self.lines():
                p = line.split()
                if p and p[0] == "format":
                    return int(p[1]), int(p[2]), p[3]
            if not self.client.alive():
                raise TestFailure("consumer exited: %s" % self.client.log())
            raise NotYet("no format yet: %r" % self.lines()[-5:])
        return self.s.wait_for(fmt, T(15), "the consumer to negotiate a format")

    def formats(self):
        out = []
        for line in self.lines():
            p = line.split()
            if p and p[0] == "format":
                out.append((int(p[1]), int(p[2]), p[3]))
        return out

    def states(self):
        return [line.split(None, 1)[1] for line in self.lines()
                if line.startswith("state ")]

    def wait_frames(self, n, since=0):
        def got():
            f = self.frames()
            if len(f) >= since + n:
                return f
            raise NotYet("%d frames so far" % len(f))
        return self.s.wait_for(got, T(15), "%d frames" % (since + n))

    def image(self, seq):
        """The picture of frame seq; NotYet until the consumer wrote it."""
        path = self.dir / ("frame-%d.ppm" % seq)
        if not path.exists():
            raise NotYet("%s not written yet" % path.name)
        return read_ppm(path)


def patch_window(s, colour, size, patch, patch_colour, name="red"):
    """A colour window whose patch (x, y, w, h) SIGUSR1 toggles to patch_colour.

    Returns the client and its entry in `orielctl windows` once shown."""
    app_id = "org.oriel.test." + name
    client = s.spawn_colour(colour, size=size, title=name, app_id=app_id,
                            extra=["--patch", ",".join(map(str, patch)),
                                   "--patch-colour", harness.colour_hex(patch_colour)])
    client.wait_ready(size=size)
    return client, s.wait_window(app_id=app_id)


def read_ppm(path):
    data = path.read_bytes()
    m = re.match(rb"P6\n(\d+) (\d+)\n255\n", data)
    expect(m, "%s is not a PPM" % path)
    w, h = int(m.group(1)), int(m.group(2))
    pixels = data[m.end():]
    return harness.Image(w, h, 3, pixels, path)


def covers(rects, box):
    """Whether the union of rects covers box (x, y, w, h), pixel-exact on a
    coarse check: every corner and the centre of box lie in some rect."""
    x, y, w, h = box
    pts = [(x, y), (x + w - 1, y), (x, y + h - 1), (x + w - 1, y + h - 1),
           (x + w // 2, y + h // 2)]
    return all(any(rx <= px < rx + rw and ry <= py < ry + rh
                   for rx, ry, rw, rh in rects) for px, py in pts)
