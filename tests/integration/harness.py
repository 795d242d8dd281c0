# SPDX-License-Identifier: MIT
"""oriel integration test harness (Python 3 standard library only).

Each test_*.py file next to this one is a self-contained program that
starts its own oriel session, drives it like a person would (through real
X and Wayland clients, orielctl, xdotool, xwininfo, xrandr) and asserts on
what a person would see: pixels from screenshots, geometry from xwininfo
and orielctl.  Exit status: 0 pass, 1 fail, 77 skip (only for things that
cannot exist on the machine, e.g. DRM hardware).

What a Session does
-------------------
- makes a temporary directory with a private XDG_RUNTIME_DIR (0700), HOME
  and XDG_CONFIG_HOME;
- starts its own `dbus-daemon --session` listening in that runtime dir, so
  parallel tests never share a bus;
- starts `oriel --backend headless --renderer pixman ...` with
  WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 and, by
  default, a session command that writes its environment to a file (this is
  how the test learns WAYLAND_DISPLAY and DISPLAY) and then sleeps;
- waits (polling, with a deadline; never fixed sleeps) for that file and for
  `orielctl outputs --json` to answer;
- on failure prints oriel's log (its stderr, which also carries Xwayland's)
  and every client's log; always kills every process it started, including
  the ones oriel started (found through XDG_RUNTIME_DIR in /proc/PID/environ).

Running one test by hand
------------------------
Build first (any build directory works), then point the test at the
binaries with environment variables, or let it find them in
ORIEL_BUILD_DIR (default: <repo>/build):

    ninja -C build
    ORIEL_BUILD_DIR=$PWD/build python3 tests/integration/test_wayland_colour.py
    echo $?            # 0 pass, 1 fail, 77 skip

or explicitly:

    ORIEL=build/oriel ORIELCTL=build/tools/orielctl \\
    ORIEL_TEST_COLOUR=build/tests/clients/oriel-test-colour \\
    ORIEL_TEST_MALFORMED=build/tests/clients/oriel-test-malformed \\
    ORIEL_TEST_PANEL=build/tests/clients/oriel-test-panel \\
    python3 tests/integration/test_x_client_maps.py

Under meson: `meson test -C build --suite headless` (or `--suite xwayland`,
or a test name).  Useful knobs:

    ORIEL_TEST_KEEP=1           keep the temporary directory (logs, screenshots)
    ORIEL_TEST_TIMEOUT_SCALE=3  multiply every timeout (slow machines, ASan)
    ORIEL_TEST_DEBUG=0          do not pass -d to oriel (default: pass it)
    ORIEL_TEST_VERBOSE=1        print every command the harness runs

orielctl is allowed on the control API by its full path in the build tree,
so ORIELCTL must be the orielctl built together with ORIEL.
"""

import itertools
import json as jsonlib
import operator
import os
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import zlib
from pathlib import Path

PASS, FAIL, SKIP = 0, 1, 77

REPO = Path(__file__).resolve().parents[2]
TIMEOUT_SCALE = float(os.environ.get("ORIEL_TEST_TIMEOUT_SCALE", "1") or "1")
VERBOSE = os.environ.get("ORIEL_TEST_VERBOSE", "") not in ("", "0")
DEFAULT_TIMEOUT = 20.0


def T(seconds):
    """A timeout, scaled for slow machines."""
    return seconds * TIMEOUT_SCALE


# ---------------------------------------------------------------------------
# Results

class TestFailure(Exception):
    """The thing under test did not do what a person would expect."""


class Skip(Exception):
    """Something the test needs cannot exist on this machine."""


class NotYet(Exception):
    """Raised by a wait_for predicate: not there yet, and why."""


def log(*args):
    print("[harness]", *args, file=sys.stderr, flush=True)


def expect(cond, message):
    if not cond:
        raise TestFailure(message)


def expect_eq(actual, expected, what):
    if actual != expected:
        raise TestFailure("%s: expected %r, got %r" % (what, expected, actual))


def _on_sigterm(signum, frame):
    # Once: let the cleanup that this starts run to its end.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    raise TestFailure("test killed by signal %d (meson timeout?)" % signum)


def run(main):
    """Run a test's main() and exit with 0/1/77."""
    signal.signal(signal.SIGTERM, _on_sigterm)
    signal.signal(signal.SIGHUP, _on_sigterm)
    name = Path(sys.argv[0]).stem
    try:
        main()
    except Skip as e:
        print("SKIP %s: %s" % (name, e), flush=True)
        sys.exit(SKIP)
    except TestFailure as e:
        print("FAIL %s: %s" % (name, e), flush=True)
        sys.exit(FAIL)
    except KeyboardInterrupt:
        print("FAIL %s: interrupted" % name, flush=True)
        sys.exit(FAIL)
    except Exception:
        traceback.print_exc()
        print("FAIL %s: exception in test" % name, flush=True)
        sys.exit(FAIL)
    print("PASS %s" % name, flush=True)
    sys.exit(PASS)


def wait_for(predicate, timeout=DEFAULT_TIMEOUT, what="condition", alive=None):
    """Poll predicate() until it returns something truthy; return that.

    predicate may raise or return NotYet("reason") to say why it is not true
    yet (so "cond or NotYet(...)" reads as it means); the last reason goes
    into the failure message.  alive(), if given, is called on each round and
    may raise to abort early (e.g. oriel died).
    """
    deadline = time.monotonic() + T(timeout)
    interval = 0.02
    reason = None
    while True:
        if alive is not None:
            alive()
        try:
            value = predicate()
            if isinstance(value, NotYet):
                raise value
            if value:
                return value
            reason = None
        except NotYet as e:
            reason = str(e)
        if time.monotonic() >= deadline:
            raise TestFailure("timed out after %.1fs waiting for %s%s" % (
                T(timeout), what, (": " + reason) if reason else ""))
        time.sleep(interval)
        interval = min(interval * 1.5, 0.25)


# ---------------------------------------------------------------------------
# Executables

_EXES = {
    "ORIEL": ["oriel"],
    "ORIELCTL": ["tools/orielctl"],
    "ORIEL_TEST_COLOUR": ["tests/clients/oriel-test-colour"],
    "ORIEL_TEST_MALFORMED": ["tests/clients/oriel-test-malformed"],
    "ORIEL_TEST_PANEL": ["tests/clients/oriel-test-panel"],
    "ORIEL_TEST_PRESENTATION": ["tests/clients/oriel-test-presentation"],
}


def exe(var):
    """Path of one of our built executables, from env var `var`."""
    value = os.environ.get(var)
    if value:
        path = Path(value)
        if not path.is_absolute():
            path = Path.cwd() / path
        if not os.access(path, os.X_OK):
            raise TestFailure("%s=%s is not an executable" % (var, value))
        return str(path.resolve())
    build = Path(os.environ.get("ORIEL_BUILD_DIR", REPO / "build"))
    for rel in _EXES.get(var, []):
        candidate = build / rel
        if os.access(candidate, os.X_OK) and candidate.is_file():
            return str(candidate.resolve())
        # Fall back to a search by name, in case the layout differs.
        name = Path(rel).name
        if build.is_dir():
            for root, _dirs, files in os.walk(build):
                if name in files:
                    found = Path(root) / name
                    if os.access(found, os.X_OK):
                        return str(found.resolve())
    raise TestFailure("%s is not set and no build was found in %s "
                      "(set %s or ORIEL_BUILD_DIR)" % (var, build, var))


def tool(name):
    """A system tool the tests need; CI installs them all, so missing = fail."""
    path = shutil.which(name)
    if path is None:
        raise TestFailure("required tool %r is not installed" % name)
    return path


def colour_hex(rgb):
    return "%02x%02x%02x" % tuple(rgb)


# ---------------------------------------------------------------------------
# PNG decoding (8-bit RGB/RGBA, non-interlaced), enough for screenshots

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_AND255 = (255).__and__


def _unfilter_sub(line, bpp):
    out = bytearray(len(line))
    for c in range(bpp):
        out[c::bpp] = bytes(map(_AND255, itertools.accumulate(line[c::bpp])))
    return out


def _unfilter_up(line, prev):
    return bytes(map(_AND255, map(operator.add, line, prev)))


def _unfilter_average(line, prev, bpp):
    cur = bytearray(line)
    for i in range(min(bpp, len(line))):
        cur[i] = (line[i] + (prev[i] >> 1)) & 255
    for i in range(bpp, len(line)):
        cur[i] = (line[i] + ((cur[i - bpp] + prev[i]) >> 1)) & 255
    return cur


def _unfilter_paeth(line, prev, bpp):
    cur = bytearray(line)
    n = len(line)
    for i in range(min(bpp, n)):
        cur[i] = (line[i] + prev[i]) & 255  # a = c = 0: the predictor is b
    if not any(line[bpp:]) and not any(prev):
        # All-zero previous row: Paeth degenerates to Sub.
        return _unfilter_sub(bytes(line), bpp)
    for i in range(bpp, n):
        a = cur[i - bpp]
        b = prev[i]
        c = prev[i - bpp]
        pa = b - c
        pb = a - c
        pc = pa + pb
        if pa < 0:
            pa = -pa
        if pb < 0:
            pb = -pb
        if pc < 0:
            pc = -pc
        if pa <= pb and pa <= pc:
            pred = a
        elif pb <= pc:
            pred = b
        else:
            pred = c
        cur[i] = (line[i] + pred) & 255
    return cur


class Image:
    """A decoded screenshot: width, height, bpp (3 or 4), rows of bytes."""

    def __init__(self, width, height, bpp, data, path=None):
        self.width = width
        self.height = height
        self.bpp = bpp
        self.stride = width * bpp
        self.data = bytes(data)
        self.path = path

    def __repr__(self):
        return "<Image %dx%d bpp=%d %s>" % (self.width, self.height,
                                            self.bpp, self.path or "")

    def pixel(self, x, y):
        """(r, g, b) at (x, y), relative to the image."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("pixel (%d,%d) outside %dx%d image" % (
                x, y, self.width, self.height))
        i = y * self.stride + x * self.bpp
        return tuple(self.data[i:i + 3])

    def rgba(self, x, y):
        i = y * self.stride + x * self.bpp
        if self.bpp == 4:
            return tuple(self.data[i:i + 4])
        return tuple(self.data[i:i + 3]) + (255,)

    def clip(self, rect):
        x, y, w, h = rect
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        return x0, y0, max(x1 - x0, 0), max(y1 - y0, 0)

    def pixels(self, rect):
        """Iterate ((x, y), (r, g, b)) over rect, clipped to the image."""
        x0, y0, w, h = self.clip(rect)
        for y in range(y0, y0 + h):
            base = y * self.stride
            for x in range(x0, x0 + w):
                i = base + x * self.bpp
                yield (x, y), tuple(self.data[i:i + 3])

    def count_colour(self, rect, rgb, tolerance=0, exclude=None):
        """Number of pixels in rect (clipped) within tolerance of rgb (per
        channel), skipping pixels inside the rect `exclude`."""
        x0, y0, w, h = self.clip(rect)
        if w == 0 or h == 0:
            return 0
        r, g, b = rgb
        bpp = self.bpp
        count = 0
        want = [bytes([v]) * w for v in rgb]
        for y in range(y0, y0 + h):
            row = self.data[y * self.stride + x0 * bpp:
                            y * self.stride + (x0 + w) * bpp]
            if exclude is None and all(row[c::bpp] == want[c] for c in range(3)):
                count += w
                continue
            for j in range(w):
                x = x0 + j
                if exclude is not None and _inside(exclude, x, y):
                    continue
                i = j * bpp
                if (abs(row[i] - r) <= tolerance and
                        abs(row[i + 1] - g) <= tolerance and
                        abs(row[i + 2] - b) <= tolerance):
                    count += 1
        return count

    def area(self, rect, exclude=None):
        x0, y0, w, h = self.clip(rect)
        n = w * h
        if exclude is not None:
            ex = self.clip(intersect((x0, y0, w, h), exclude))
            n -= ex[2] * ex[3]
        return n

    def histogram(self, rect, top=5):
        """The `top` most common colours in rect, as [((r,g,b), count)]."""
        counts = {}
        for _pos, px in self.pixels(rect):
            counts[px] = counts.get(px, 0) + 1
        return sorted(counts.items(), key=lambda kv: -kv[1])[:top]

    def first_mismatch(self, rect, rgb, tolerance=0, exclude=None):
        for (x, y), px in self.pixels(rect):
            if exclude is not None and _inside(exclude, x, y):
                continue
            if any(abs(px[c] - rgb[c]) > tolerance for c in range(3)):
                return (x, y), px
        return None

    def describe(self, rect):
        return ", ".join("#%s x%d" % (colour_hex(c), n)
                         for c, n in self.histogram(rect))


def _inside(rect, x, y):
    rx, ry, rw, rh = rect
    return rx <= x < rx + rw and ry <= y < ry + rh


def intersect(a, b):
    x0 = max(a[0], b[0])
    y0 = max(a[1], b[1])
    x1 = min(a[0] + a[2], b[0] + b[2])
    y1 = min(a[1] + a[3], b[1] + b[3])
    return (x0, y0, max(0, x1 - x0), max(0, y1 - y0))


def ring(rect):
    """The 1-pixel ring just outside rect, as a list of 1-px-thick rects."""
    x, y, w, h = rect
    return [(x - 1, y - 1, w + 2, 1), (x - 1, y + h, w + 2, 1),
            (x - 1, y, 1, h), (x + w, y, 1, h)]


def decode_png(data, path=None):
    if data[:8] != _PNG_SIGNATURE:
        raise ValueError("not a PNG file%s" % (" (%s)" % path if path else ""))
    pos = 8
    header = None
    idat = []
    seen_end = False
    while pos + 8 <= len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if pos + 12 + length > len(data):
            raise ValueError("truncated PNG chunk %r" % ctype)
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(ctype + chunk) & 0xffffffff != crc:
            raise ValueError("bad CRC in PNG chunk %r" % ctype)
        pos += 12 + length
        if ctype == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif ctype == b"IDAT":
            idat.append(chunk)
        elif ctype == b"IEND":
            seen_end = True
            break
    if header is None or not idat or not seen_end:
        raise ValueError("incomplete PNG (IHDR/IDAT/IEND missing)")
    width, height, depth, colour_type, _comp, _filt, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace != 0:
        raise ValueError("unsupported PNG: depth %d colour type %d interlace %d"
                         % (depth, colour_type, interlace))
    bpp = 3 if colour_type == 2 else 4
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    if len(raw) != height * (stride + 1):
        raise ValueError("PNG data is %d bytes, expected %d" % (
            len(raw), height * (stride + 1)))
    out = bytearray(height * stride)
    prev = bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype = raw[start]
        line = raw[start + 1:start + 1 + stride]
        if ftype == 0:
            cur = line
        elif ftype == 1:
            cur = _unfilter_sub(line, bpp)
        elif ftype == 2:
            cur = _unfilter_up(line, prev)
        elif ftype == 3:
            cur = _unfilter_average(line, prev, bpp)
        elif ftype == 4:
            cur = _unfilter_paeth(line, prev, bpp)
        else:
            raise ValueError("bad PNG filter type %d in row %d" % (ftype, y))
        out[y * stride:(y + 1) * stride] = cur
        prev = cur
    return Image(width, height, bpp, out, path)


def read_png(path):
    with open(path, "rb") as f:
        return decode_png(f.read(), str(path))


# ---------------------------------------------------------------------------
# /proc helpers

def proc_environ(pid):
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            raw = f.read()
    except OSError:
        return None
    env = {}
    for item in raw.split(b"\0"):
        if b"=" in item:
            k, v = item.split(b"=", 1)
            env[k.decode(errors="replace")] = v.decode(errors="replace")
    return env


def proc_cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return None


def proc_comm(pid):
    try:
        with open("/proc/%d/comm" % pid) as f:
            return f.read().strip()
    except OSError:
        return None


def proc_state(pid):
    """Single-letter state from /proc/PID/stat, or None if gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()[0]


def pid_alive(pid):
    state = proc_state(pid)
    return state is not None and state not in ("Z", "X")


def proc_age(pid):
    """Seconds since the process started."""
    with open("/proc/%d/stat" % pid) as f:
        stat = f.read()
    fields = stat[stat.rindex(")") + 2:].split()
    start_ticks = int(fields[19])  # field 22 overall
    with open("/proc/uptime") as f:
        uptime = float(f.read().split()[0])
    return uptime - start_ticks / os.sysconf("SC_CLK_TCK")


def proc_cpu_ticks(pid):
    """utime + stime of the whole process, in clock ticks."""
    with open("/proc/%d/stat" % pid) as f:
        stat = f.read()
    fields = stat[stat.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12])


def proc_ctxt_switches(pid):
    """(voluntary, nonvoluntary) context switches summed over all threads."""
    vol = invol = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/status" % (pid, tid)) as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches:"):
                        vol += int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches:"):
                        invol += int(line.split()[1])
        except OSError:
            pass
    return vol, invol


def idle_cost(pid, seconds):
    """Watches pid for `seconds` (the measurement window itself, so a sleep).

    Returns (share of a core used, voluntary context switches: wakeups)."""
    cpu0 = proc_cpu_ticks(pid)
    vol0, _ = proc_ctxt_switches(pid)
    time.sleep(seconds)
    cpu1 = proc_cpu_ticks(pid)
    vol1, _ = proc_ctxt_switches(pid)
    return (cpu1 - cpu0) / os.sysconf("SC_CLK_TCK") / seconds, vol1 - vol0


def all_pids():
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def unix_sockets():
    """{path: set(inodes)} of unix sockets (abstract paths start with '@')."""
    sockets = {}
    try:
        with open("/proc/net/unix") as f:
            next(f)
            for line in f:
                parts = line.split()
                if len(parts) >= 8:
                    sockets.setdefault(parts[7], set()).add(int(parts[6]))
    except OSError:
        pass
    return sockets


def socket_owners(inodes):
    """pids of live processes that hold one of these socket inodes."""
    wanted = set("socket:[%d]" % i for i in inodes)
    owners = set()
    for pid in all_pids():
        fd_dir = "/proc/%d/fd" % pid
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink("%s/%s" % (fd_dir, fd)) in wanted:
                    owners.add(pid)
                    break
            except OSError:
                continue
    return owners


def x_display_leftovers(n, ours):
    """What is left of X display :n that no one else is using now.

    Other oriel sessions (parallel tests) may take the same display number
    as soon as it is free, so a lock or socket that belongs to a live
    process outside `ours` (the pids of the session under test) is theirs,
    not a leftover."""
    left = []
    lock = Path("/tmp/.X%d-lock" % n)
    if lock.exists():
        try:
            holder = int(lock.read_text().strip())
        except (OSError, ValueError):
            holder = None
        if holder is None or holder in ours or not pid_alive(holder):
            left.append("%s (pid %s)" % (lock, holder))
    sockets = unix_sockets()
    for name in ("/tmp/.X11-unix/X%d" % n, "@/tmp/.X11-unix/X%d" % n):
        inodes = sockets.get(name, set())
        owners = socket_owners(inodes) if inodes else set()
        if owners and not (owners & set(ours)):
            continue  # another session's display now
        if owners:
            left.append("socket %s held by %s" % (name, ", ".join(
                "%d (%s)" % (p, proc_comm(p)) for p in sorted(owners))))
        elif not name.startswith("@") and Path(name).exists():
            left.append("socket file %s" % name)
    return left



# ---------------------------------------------------------------------------
# Namespaces of a test's own

IN_NAMESPACES = "--in-namespaces"


def private_tmp():
    """A /tmp of this mount namespace's own, with the trees the test runs
    from (a clone or build in /tmp) bound back at their paths."""
    mount = tool("mount")
    subprocess.run([mount, "-t", "tmpfs", "-o", "mode=1777", "tmpfs", "/mnt"], check=True)
    for tree in (str(REPO), os.environ.get("ORIEL_BUILD_DIR")):
        tree = os.path.realpath(tree) if tree else None
        if tree and tree.startswith("/tmp/"):
            inside = os.path.join("/mnt", os.path.relpath(tree, "/tmp"))
            os.makedirs(inside, exist_ok=True)
            subprocess.run([mount, "--bind", tree, inside], check=True)
    subprocess.run([mount, "--move", "/mnt", "/tmp"], check=True)
    os.mkdir("/tmp/.X11-unix")
    os.chmod("/tmp/.X11-unix", 0o1777)


def run_in_namespaces(inside):
    """run(inside), in a mount and network namespace of the test's own: a
    private /tmp (with /tmp/.X11-unix) and a loopback of its own. There a
    test may fill /tmp and bind abstract X sockets without touching the
    host's X servers or the tests that run beside it."""
    if sys.argv[1:] == [IN_NAMESPACES]:
        def prepared():
            private_tmp()
            subprocess.run([tool("ip"), "link", "set", "lo", "up"], check=True)
            inside()
        run(prepared)
        return

    def outside():
        probe = subprocess.run([tool("unshare"), "-m", "-n", "true"], stderr=subprocess.PIPE)
        if probe.returncode != 0:
            raise Skip("no mount or network namespaces: %s" %
                       probe.stderr.decode().strip())
        res = subprocess.run([tool("unshare"), "-m", "-n", sys.executable, sys.argv[0],
                              IN_NAMESPACES], env=os.environ)
        if res.returncode != 0:
            raise TestFailure("the part in the namespaces failed (exit %d)" % res.returncode)
    run(outside)


# ---------------------------------------------------------------------------
# Clients

class Client:
    """A process the test started, with its own log file."""

    def __init__(self, session, name, argv, proc, log_path):
        self.session = session
        self.name = name
        self.argv = argv
        self.proc = proc
        self.log_path = log_path

    @property
    def pid(self):
        return self.proc.pid

    def alive(self):
        return self.proc.poll() is None

    def log(self):
        try:
            return Path(self.log_path).read_text(errors="replace")
        except OSError:
            return ""

    def wait(self, timeout=DEFAULT_TIMEOUT):
        try:
            return self.proc.wait(T(timeout))
        except subprocess.TimeoutExpired:
            raise TestFailure("%s (pid %d) did not exit within %.1fs" % (
                self.name, self.pid, T(timeout)))

    def kill(self, sig=signal.SIGKILL):
        _kill_group(self.proc, sig)


class ReadyClient(Client):
    """A test client that writes "W H" to a ready file when presented."""

    def __init__(self, session, name, argv, proc, log_path, ready_file):
        super().__init__(session, name, argv, proc, log_path)
        self.ready_file = ready_file

    def size(self):
        """The last presented size (w, h), or None before the first frame."""
        try:
            text = Path(self.ready_file).read_text()
        except OSError:
            return None
        parts = text.split()
        if len(parts) < 2:
            return None
        try:
            return int(parts[0]), int(parts[1])
        except ValueError:
            return None

    def wait_ready(self, size=None, timeout=DEFAULT_TIMEOUT):
        """Wait until a frame (of `size`, if given) was presented."""
        def ready():
            if not self.alive():
                raise TestFailure("%s exited with %s before being presented; log:\n%s"
                                  % (self.name, self.proc.returncode, self.log()))
            got = self.size()
            if got is None:
                raise NotYet("no ready file yet")
            if size is not None and tuple(got) != tuple(size):
                raise NotYet("presented %dx%d" % got)
            return got
        what = "%s to present a frame%s" % (
            self.name, " of %dx%d" % tuple(size) if size else "")
        return self.session.wait_for(ready, timeout, what)


def _kill_group(proc, sig):
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        try:
            proc.send_signal(sig)
        except ProcessLookupError:
            pass


# ---------------------------------------------------------------------------
# The session

DEFAULT_ENV_COMMAND = 'env > "$0.tmp" && mv "$0.tmp" "$0"; exec sleep 1000000'


class Session:
    """One oriel instance on its own bus and runtime dir.  Use with `with`."""

    def __init__(self, outputs=("1280x720",), xwayland=None, kiosk=False,
                 config=None, args=(), command=None, wait_ready=True,
                 debug=None, env=None, name=None, check_exit=True, sound=False):
        self.outputs_arg = list(outputs or [])
        # Sessions start no sound server of their own unless the test wants one.
        self.sound = sound
        self.xwayland = xwayland
        self.kiosk = kiosk
        self.config = config
        self.extra_args = list(args)
        self.command = command
        self.want_ready = wait_ready
        if debug is None:
            debug = os.environ.get("ORIEL_TEST_DEBUG", "1") not in ("", "0")
        self.debug = debug
        self.extra_env = dict(env or {})
        self.check_exit = check_exit
        self.name = name or Path(sys.argv[0]).stem
        self.clients = []
        self.oriel = None
        self.dbus = None
        self.exit_status = None
        self.session_env = None
        self.display = None
        self.wayland_display = None
        self._counter = itertools.count(1)
        self._cleaned = False

    # -- setup ------------------------------------------------------------

    def __enter__(self):
        try:
            self._start()
        except BaseException:
            self._finish(failed=True)
            raise
        return self

    def __exit__(self, exc_type, exc, tb):
        failed = exc_type is not None and not issubclass(exc_type, Skip)
        problems = self._finish(failed=failed)
        if problems and not failed:
            raise TestFailure("at the end of the session: " + "; ".join(problems))
        return False

    def _start(self):
        self.oriel_exe = exe("ORIEL")
        self.orielctl_exe = exe("ORIELCTL")
        self.tmp = Path(tempfile.mkdtemp(prefix="oriel-%s-" % self.name))
        self.runtime_dir = self.tmp / "runtime"
        self.home = self.tmp / "home"
        self.config_home = self.home / ".config"
        for d in (self.runtime_dir, self.home, self.config_home):
            d.mkdir(parents=True, exist_ok=True)
        os.chmod(self.runtime_dir, 0o700)
        self.env_file = self.tmp / "session.env"
        self.oriel_log = self.tmp / "oriel.log"
        self.dbus_log = self.tmp / "dbus.log"

        base = dict(os.environ)
        for var in ("WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY",
                    "DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY", "XDG_SESSION_TYPE",
                    "XDG_CURRENT_DESKTOP", "SWAYSOCK", "I3SOCK"):
            base.pop(var, None)
        base.update({
            "XDG_RUNTIME_DIR": str(self.runtime_dir),
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.config_home),
            "XDG_DATA_HOME": str(self.home / ".local/share"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_STATE_HOME": str(self.home / ".local/state"),
            "WLR_BACKENDS": "headless",
            "WLR_RENDERER": "pixman",
            "WLR_LIBINPUT_NO_DEVICES": "1",
            "LC_ALL": "C.UTF-8",
        })
        base.update(self.extra_env)
        self.base_env = base

        self._start_dbus()
        self.base_env["DBUS_SESSION_BUS_ADDRESS"] = self.bus_address
        self._start_oriel()
        if self.want_ready:
            self.wait_ready()

    def _start_dbus(self):
        read_fd, write_fd = os.pipe()
        logf = open(self.dbus_log, "wb")
        try:
            self.dbus = subprocess.Popen(
                [tool("dbus-daemon"), "--session", "--nofork",
                 "--print-address=%d" % write_fd,
                 "--address=unix:dir=%s" % self.runtime_dir],
                env=self.base_env, stdin=subprocess.DEVNULL, stdout=logf,
                stderr=subprocess.STDOUT, pass_fds=(write_fd,),
                start_new_session=True)
        finally:
            os.close(write_fd)
            logf.close()
        deadline = time.monotonic() + T(10)
        buf = b""
        os.set_blocking(read_fd, False)
        try:
            while b"\n" not in buf:
                if time.monotonic() > deadline:
                    raise TestFailure("dbus-daemon did not print its address")
                if self.dbus.poll() is not None:
                    raise TestFailure("dbus-daemon exited with %d: %s" % (
                        self.dbus.returncode, self.dbus_log.read_text(errors="replace")))
                try:
                    chunk = os.read(read_fd, 4096)
                    if chunk:
                        buf += chunk
                        continue
                except BlockingIOError:
                    pass
                time.sleep(0.02)
        finally:
            os.close(read_fd)
        self.bus_address = buf.split(b"\n")[0].decode().strip()
        if VERBOSE:
            log("bus:", self.bus_address)

    def oriel_argv(self):
        argv = [self.oriel_exe, "--backend", "headless", "--renderer", "pixman"]
        for o in self.outputs_arg:
            argv += ["--output", o]
        if self.xwayland:
            argv += ["--xwayland", self.xwayland]
        if self.kiosk:
            argv.append("--kiosk")
        if self.config:
            argv += ["--config", str(self.config)]
        if self.debug:
            argv.append("-d")
        if not self.sound:
            argv += ["--sound-server", "off"]
        argv += self.extra_args
        if self.command is None:
            argv += ["--", "sh", "-c", DEFAULT_ENV_COMMAND, str(self.env_file)]
        elif self.command:
            argv += ["--"] + list(self.command)
        return argv

    def _start_oriel(self):
        argv = self.oriel_argv()
        if VERBOSE:
            log("starting:", " ".join(shlex.quote(a) for a in argv))
        logf = open(self.oriel_log, "wb")
        try:
            self.oriel = subprocess.Popen(
                argv, env=self.base_env, stdin=subprocess.DEVNULL,
                stdout=logf, stderr=subprocess.STDOUT, start_new_session=True,
                cwd=str(self.tmp))
        finally:
            logf.close()
        self.oriel_started = time.monotonic()

    def check_alive(self):
        """Raise if oriel has exited (used by every wait), unless the test
        made it exit (stop, wait_exit)."""
        if self.exit_status is not None:
            return
        if self.oriel is not None and self.oriel.poll() is not None:
            raise TestFailure("oriel exited unexpectedly with status %s" %
                              _status(self.oriel.returncode))

    def wait_for(self, predicate, timeout=DEFAULT_TIMEOUT, what="condition",
                 check_alive=True):
        return wait_for(predicate, timeout, what,
                        alive=self.check_alive if check_alive else None)

    def wait_ready(self, timeout=30):
        if self.command is None:
            def env_written():
                if not self.env_file.exists():
                    raise NotYet("session command has not written %s" % self.env_file)
                return True
            self.wait_for(env_written, timeout, "the session command to start")
            self.session_env = _parse_env(self.env_file.read_text())
            self.wayland_display = self.session_env.get("WAYLAND_DISPLAY")
            self.display = self.session_env.get("DISPLAY")
            if not self.wayland_display:
                raise TestFailure("session command got no WAYLAND_DISPLAY")
        else:
            self.wayland_display = self.wait_for(
                self._find_wayland_socket, timeout, "oriel's wayland socket")

        def control_api():
            res = self.orielctl_raw("outputs", "--json")
            if res.returncode != 0:
                raise NotYet("orielctl outputs: exit %d: %s" % (
                    res.returncode, res.stderr.strip()))
            try:
                outs = jsonlib.loads(res.stdout)
            except ValueError as e:
                raise TestFailure("orielctl outputs --json printed invalid JSON "
                                  "(%s): %r" % (e, res.stdout))
            if not outs:
                raise NotYet("no outputs yet")
            return outs
        self.wait_for(control_api, timeout,
                      "org.oriel.Compositor to answer on the session bus")
        if VERBOSE:
            log("ready: WAYLAND_DISPLAY=%s DISPLAY=%s" % (
                self.wayland_display, self.display))

    def _find_wayland_socket(self):
        for entry in sorted(os.listdir(self.runtime_dir)):
            if re.fullmatch(r"wayland-\d+", entry):
                return entry
        raise NotYet("no wayland-N socket in %s" % self.runtime_dir)

    @property
    def env(self):
        """Environment for clients of this session."""
        env = dict(self.base_env)
        if self.wayland_display:
            env["WAYLAND_DISPLAY"] = self.wayland_display
        if self.display:
            env["DISPLAY"] = self.display
        return env

    @property
    def display_number(self):
        if not self.display:
            return None
        m = re.fullmatch(r".*:(\d+)(\.\d+)?", self.display)
        return int(m.group(1)) if m else None

    # -- teardown ---------------------------------------------------------

    def session_pids(self):
        """Every live process carrying this session's XDG_RUNTIME_DIR."""
        mine = "XDG_RUNTIME_DIR=%s" % self.runtime_dir
        needle = mine.encode() + b"\0"
        pids = []
        for pid in all_pids():
            if pid == os.getpid():
                continue
            try:
                with open("/proc/%d/environ" % pid, "rb") as f:
                    raw = f.read()
            except OSError:
                continue
            if (b"\0" + needle) in (b"\0" + raw + b"\0") and pid_alive(pid):
                pids.append(pid)
        return pids

    def stop(self, timeout=15):
        """SIGTERM oriel, wait for it, return its exit status."""
        if self.oriel.poll() is None:
            self.oriel.send_signal(signal.SIGTERM)
        try:
            self.exit_status = self.oriel.wait(T(timeout))
        except subprocess.TimeoutExpired:
            raise TestFailure("oriel did not exit within %.1fs of SIGTERM" % T(timeout))
        return self.exit_status

    def wait_exit(self, timeout=DEFAULT_TIMEOUT):
        """Wait for oriel to exit on its own; return its exit status."""
        try:
            self.exit_status = self.oriel.wait(T(timeout))
        except subprocess.TimeoutExpired:
            raise TestFailure("oriel did not exit within %.1fs" % T(timeout))
        return self.exit_status

    def _finish(self, failed):
        """Stop everything; return problems seen while stopping (a session
        that still runs is stopped like a person would: SIGTERM, which must
        give exit status 0, and sanitizer reports are problems too)."""
        if self._cleaned:
            return []
        self._cleaned = True
        problems = []
        for c in self.clients:
            if c.proc.poll() is None:
                c.kill(signal.SIGKILL)
        if self.oriel is not None and self.oriel.poll() is None:
            self.oriel.send_signal(signal.SIGTERM)
            try:
                status = self.oriel.wait(T(10))
                if status != 0 and self.check_exit:
                    problems.append("oriel exited with status %s on SIGTERM"
                                    % _status(status))
            except subprocess.TimeoutExpired:
                problems.append("oriel did not exit within %.0fs of SIGTERM" % T(10))
                _kill_group(self.oriel, signal.SIGKILL)
        if self.oriel is not None:
            _kill_group(self.oriel, signal.SIGKILL)
            try:
                self.oriel.wait(5)
            except subprocess.TimeoutExpired:
                pass
        # Whatever oriel started (Xwayland, the session command, ...).
        if hasattr(self, "runtime_dir"):
            leftovers = [p for p in self.session_pids()
                         if self.dbus is None or p != self.dbus.pid]
            for pid in leftovers:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        for c in self.clients:
            try:
                c.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
        if self.dbus is not None:
            _kill_group(self.dbus, signal.SIGTERM)
            try:
                self.dbus.wait(5)
            except subprocess.TimeoutExpired:
                _kill_group(self.dbus, signal.SIGKILL)
                self.dbus.wait()
        self._remove_stale_x_files()
        self._unmount_leftovers()
        problems += self.sanitizer_reports()
        if failed or problems:
            self.dump_logs()
        if hasattr(self, "tmp"):
            keep = os.environ.get("ORIEL_TEST_KEEP", "") not in ("", "0")
            if keep:
                log("kept", self.tmp)
            else:
                shutil.rmtree(self.tmp, ignore_errors=True)
        return problems

    def sanitizer_reports(self):
        """ASan/LSan/UBSan reports in oriel's log, one line each."""
        try:
            text = self.oriel_log.read_text(errors="replace")
        except (OSError, AttributeError):
            return []
        found = []
        for line in text.splitlines():
            if (re.search(r"ERROR: (Address|Leak|Memory|Thread)Sanitizer", line) or
                    re.search(r"^\S+:\d+:\d+: runtime error: ", line)):
                found.append("sanitizer: " + line.strip())
        return found[:5]

    def _unmount_leftovers(self):
        """xdg-desktop-portal activates xdg-document-portal, which FUSE-mounts
        $XDG_RUNTIME_DIR/doc; killed with the session, it leaves the mount
        behind, and with it a temporary directory that cannot be removed."""
        if not hasattr(self, "tmp"):
            return
        prefix = str(self.tmp) + "/"
        try:
            with open("/proc/self/mounts") as f:
                points = [line.split()[1] for line in f]
        except OSError:
            return
        for point in points:
            point = point.replace("\\040", " ")
            if point.startswith(prefix):
                subprocess.run(["fusermount", "-u", "-z", point],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def _remove_stale_x_files(self):
        """If oriel was killed hard, its X lock files stay; remove ours only."""
        n = self.display_number
        if n is None:
            return
        lock = Path("/tmp/.X%d-lock" % n)
        try:
            pid = int(lock.read_text().strip())
        except (OSError, ValueError):
            return
        if pid_alive(pid):
            return
        for path in (lock, Path("/tmp/.X11-unix/X%d" % n)):
            try:
                path.unlink()
            except OSError:
                pass

    def dump_logs(self, tail=400):
        out = sys.stderr
        print("=" * 30 + " oriel log (%s) " % self.oriel_log + "=" * 30, file=out)
        if hasattr(self, "oriel_log"):
            print("command: %s" % " ".join(shlex.quote(a) for a in self.oriel_argv()),
                  file=out)
            if self.oriel is not None:
                print("exit status: %s" % _status(self.oriel.returncode), file=out)
            print(_tail(self.oriel_log, tail), file=out)
        for c in self.clients:
            print("-" * 20 + " %s (pid %d, exit %s): %s " % (
                c.name, c.pid, _status(c.proc.returncode),
                " ".join(shlex.quote(a) for a in c.argv)) + "-" * 20, file=out)
            print(_tail(c.log_path, tail), file=out)
        if hasattr(self, "dbus_log"):
            text = _tail(self.dbus_log, 50)
            if text.strip():
                print("-" * 20 + " dbus-daemon " + "-" * 20, file=out)
                print(text, file=out)
        print("=" * 80, file=out, flush=True)

    def log_text(self):
        return self.oriel_log.read_text(errors="replace")

    # -- processes --------------------------------------------------------

    def spawn(self, argv, name=None, env=None, cwd=None):
        argv = [str(a) for a in argv]
        name = name or Path(argv[0]).name
        n = next(self._counter)
        log_path = self.tmp / ("client-%02d-%s.log" % (n, name))
        full_env = _merge_env(self.env, env)
        if VERBOSE:
            log("spawn:", " ".join(shlex.quote(a) for a in argv))
        with open(log_path, "wb") as logf:
            proc = subprocess.Popen(argv, env=full_env, stdin=subprocess.DEVNULL,
                                    stdout=logf, stderr=subprocess.STDOUT,
                                    start_new_session=True,
                                    cwd=cwd or str(self.tmp))
        client = Client(self, name, argv, proc, log_path)
        self.clients.append(client)
        return client

    def spawn_x(self, argv, name=None):
        expect(self.display, "this session has no DISPLAY")
        return self.spawn(argv, name, env={"WAYLAND_DISPLAY": None})

    def spawn_wayland(self, argv, name=None):
        return self.spawn(argv, name)

    def _spawn_ready(self, argv, name):
        n = next(self._counter)
        ready = self.tmp / ("ready-%02d-%s" % (n, name))
        c = self.spawn(list(argv) + ["--ready-file", str(ready)], name)
        rc = ReadyClient(self, c.name, c.argv, c.proc, c.log_path, ready)
        self.clients[-1] = rc
        return rc

    def spawn_colour(self, colour, size=(320, 240), title="oriel test",
                     app_id="org.oriel.test", maximize=False, fullscreen=False,
                     extra=()):
        argv = [exe("ORIEL_TEST_COLOUR"), "--size", "%dx%d" % tuple(size),
                "--colour", colour_hex(colour), "--title", title,
                "--app-id", app_id]
        if maximize:
            argv.append("--maximize")
        if fullscreen:
            argv.append("--fullscreen")
        argv += list(extra)
        return self._spawn_ready(argv, "colour-" + app_id.split(".")[-1])

    def colour_window_at(self, colour, size, pos, title, app_id):
        """A colour client shown at size and moved to pos (layout coordinates).

        Returns the client and its entry in `orielctl windows` once there."""
        client = self.spawn_colour(colour, size=size, title=title, app_id=app_id)
        client.wait_ready(size=size)
        window = self.wait_window(app_id=app_id)
        self.orielctl("move", window["id"], *pos)
        window = self.wait_window(
            id=window["id"], where=lambda w: (w["x"], w["y"]) == tuple(pos),
            what="%s to move to %r" % (title, tuple(pos)))
        return client, window

    def spawn_panel(self, height, colour):
        argv = [exe("ORIEL_TEST_PANEL"), "--height", str(height),
                "--colour", colour_hex(colour)]
        return self._spawn_ready(argv, "panel")

    def run_tool(self, argv, timeout=15, check=True, env=None, x=False):
        """Run a short-lived command in the session's environment."""
        argv = [str(a) for a in argv]
        full_env = _merge_env(self.env, env)
        if x:
            full_env.pop("WAYLAND_DISPLAY", None)
        if VERBOSE:
            log("run:", " ".join(shlex.quote(a) for a in argv))
        try:
            res = subprocess.run(argv, env=full_env, stdin=subprocess.DEVNULL,
                                 capture_output=True, text=True,
                                 timeout=T(timeout), cwd=str(self.tmp))
        except subprocess.TimeoutExpired:
            raise TestFailure("%s did not finish within %.1fs" % (
                " ".join(argv), T(timeout)))
        if check and res.returncode != 0:
            raise TestFailure("%s failed with %s:\n%s%s" % (
                " ".join(shlex.quote(a) for a in argv), _status(res.returncode),
                res.stdout, res.stderr))
        return res

    # -- orielctl ---------------------------------------------------------

    def orielctl_raw(self, *args, timeout=15):
        return self.run_tool([self.orielctl_exe] + [str(a) for a in args],
                             timeout=timeout, check=False)

    def orielctl(self, *args, json=None, check=True, timeout=15):
        """Run orielctl.  With json (default for outputs/windows) append
        --json and return the parsed output; otherwise return stdout."""
        args = [str(a) for a in args]
        if json is None:
            json = bool(args) and args[0] in ("outputs", "windows")
        if json:
            args.append("--json")
        res = self.orielctl_raw(*args, timeout=timeout)
        if res.returncode != 0:
            if check:
                self.check_alive()
                raise TestFailure("orielctl %s failed with %s: %s" % (
                    " ".join(args), _status(res.returncode), res.stderr.strip()))
            return None
        if json:
            try:
                return jsonlib.loads(res.stdout) if res.stdout.strip() else None
            except ValueError as e:
                raise TestFailure("orielctl %s printed invalid JSON (%s): %r" % (
                    " ".join(args), e, res.stdout))
        return res.stdout

    def outputs(self):
        return self.orielctl("outputs")

    def output(self, name=None):
        outs = self.outputs()
        expect(outs, "orielctl outputs lists no output")
        if name is None:
            return outs[0]
        for o in outs:
            if o["name"] == name:
                return o
        raise TestFailure("no output %r in %r" % (name, outs))

    def output_rect(self, name=None):
        o = self.output(name)
        return (o["x"], o["y"], o["width"], o["height"])

    def windows(self):
        return self.orielctl("windows") or []

    def window_by(self, app_id=None, title=None, kind=None, id=None, windows=None):
        """The topmost window matching all given fields, or None."""
        wins = self.windows() if windows is None else windows
        for w in reversed(wins):
            if app_id is not None and w.get("app_id") != app_id:
                continue
            if title is not None and w.get("title") != title:
                continue
            if kind is not None and w.get("kind") != kind:
                continue
            if id is not None and w.get("id") != id:
                continue
            return w
        return None

    def wait_window(self, where=None, what=None, timeout=DEFAULT_TIMEOUT, **match):
        """Wait until a window matching **match (and where(w), if given) is
        listed; return it."""
        desc = what or "a window with %s" % ", ".join(
            "%s=%r" % kv for kv in match.items())

        def find():
            wins = self.windows()
            w = self.window_by(windows=wins, **match)
            if w is None:
                raise NotYet("windows: %s" % brief_windows(wins))
            if where is not None and not where(w):
                raise NotYet("window is %s" % jsonlib.dumps(w))
            return w
        return self.wait_for(find, timeout, desc)

    def wait_no_window(self, timeout=DEFAULT_TIMEOUT, **match):
        def gone():
            wins = self.windows()
            if self.window_by(windows=wins, **match) is not None:
                raise NotYet("still listed: %s" % brief_windows(wins))
            return True
        return self.wait_for(gone, timeout, "no window with %s" % match)

    # -- screenshots ------------------------------------------------------

    def screenshot(self, output=None, window=None, region=None):
        n = next(self._counter)
        path = self.tmp / ("shot-%03d.png" % n)
        args = ["screenshot"]
        if output is not None:
            args += ["--output", output]
        if window is not None:
            args += ["--window", window]
        if region is not None:
            args += ["--region", "%d,%d,%d,%d" % tuple(region)]
        args.append(str(path))
        self.orielctl(*args, json=False)
        expect(path.exists(), "orielctl screenshot wrote no %s" % path)
        try:
            return read_png(path)
        except (ValueError, zlib.error) as e:
            raise TestFailure("screenshot %s is not a readable PNG: %s" % (path, e))

    def wait_colour(self, rect, rgb, tolerance=2, timeout=DEFAULT_TIMEOUT,
                    exclude=None, what=None):
        """Wait until every pixel of rect (layout coordinates) is rgb.
        Returns the region screenshot."""
        x, y, w, h = rect
        last = {}

        def check():
            img = self.screenshot(region=rect)
            expect_eq((img.width, img.height), (w, h),
                      "size of region screenshot %r" % (rect,))
            ex = None
            if exclude is not None:
                ex = (exclude[0] - x, exclude[1] - y, exclude[2], exclude[3])
            bad = img.first_mismatch((0, 0, w, h), rgb, tolerance, ex)
            last["img"] = img
            if bad is not None:
                (bx, by), px = bad
                raise NotYet("pixel (%d,%d) is #%s; region has %s" % (
                    bx + x, by + y, colour_hex(px), img.describe((0, 0, w, h))))
            return img
        return self.wait_for(check, timeout, what or "%r to be #%s" % (
            rect, colour_hex(rgb)))

    # -- input ------------------------------------------------------------

    def pointer_move(self, x, y):
        self.orielctl("pointer", "move", x, y, json=False)

    def click(self, x, y, button="left"):
        self.pointer_move(x, y)
        self.orielctl("pointer", "button", button, "click", json=False)

    def park_pointer(self):
        """Move the pointer to the bottom-right corner of the layout, where
        its image covers (almost) nothing.  Returns the 64x64 box that any
        cursor image could still cover, for exclusion from pixel checks."""
        outs = self.outputs()
        right = max(o["x"] + o["width"] for o in outs)
        bottom = max(o["y"] + o["height"] for o in outs)
        self.pointer_move(right - 1, bottom - 1)
        return (right - 64, bottom - 64, 64, 64)

    def key_type(self, text):
        self.orielctl("key", "type", text, json=False)

    def key_sym(self, name, action="tap"):
        self.orielctl("key", "keysym", name, action, json=False)

    # -- X helpers --------------------------------------------------------

    def x_tool(self, *argv, timeout=15, check=True):
        expect(self.display, "this session has no DISPLAY")
        return self.run_tool(list(argv), timeout=timeout, check=check, x=True)

    def x_search(self, cls=None, name=None, visible=True):
        """X window ids (ints) from xdotool search."""
        argv = [tool("xdotool"), "search"]
        if visible:
            argv.append("--onlyvisible")
        if cls is not None:
            argv += ["--class", "^%s$" % re.escape(cls)]
        elif name is not None:
            argv += ["--name", "^%s$" % re.escape(name)]
        res = self.x_tool(*argv, check=False)
        return [int(line) for line in res.stdout.split() if line.strip().isdigit()]

    def wait_x_focus(self, wid, what="X input focus on xterm"):
        """Waits until the X server's input focus is on window wid."""
        def focused():
            res = self.x_tool(tool("xdotool"), "getwindowfocus", check=False)
            if res.stdout.strip() != str(wid):
                raise NotYet("X focus is %r, want %d" % (res.stdout.strip(), wid))
            return True
        return self.wait_for(focused, what=what)

    def wait_written(self, proc, out, who="xterm"):
        """The text proc (a client of this session, such as an xterm whose
        shell writes what it reads) wrote to the file out, once it is there."""
        def written():
            if not out.exists():
                if not proc.alive():
                    raise TestFailure("%s exited (%s) without writing %s"
                                      % (who, proc.proc.returncode, out))
                raise NotYet("%s not written yet" % out)
            return out.read_text(encoding="utf-8", errors="replace")
        return self.wait_for(written, what="%s to write the typed line" % who)

    def wait_x_window(self, cls, timeout=DEFAULT_TIMEOUT):
        def found():
            ids = self.x_search(cls=cls)
            if not ids:
                raise NotYet("xdotool search --class %s found nothing" % cls)
            if len(ids) > 1:
                raise NotYet("several windows of class %s: %r" % (cls, ids))
            return ids[0]
        return self.wait_for(found, timeout, "X window of class %s" % cls)

    def xwininfo(self, wid=None):
        argv = [tool("xwininfo")] + (["-id", str(wid)] if wid is not None else ["-root"])
        out = self.x_tool(*argv).stdout
        info = {}
        for key, pat in (("x", r"Absolute upper-left X:\s+(-?\d+)"),
                         ("y", r"Absolute upper-left Y:\s+(-?\d+)"),
                         ("width", r"Width:\s+(\d+)"),
                         ("height", r"Height:\s+(\d+)")):
            m = re.search(pat, out)
            if not m:
                raise TestFailure("cannot parse xwininfo output:\n" + out)
            info[key] = int(m.group(1))
        m = re.search(r"Map State:\s+(\w+)", out)
        info["map_state"] = m.group(1) if m else None
        return info

    def xprop(self, wid, prop):
        res = self.x_tool(tool("xprop"), "-id", str(wid), prop)
        return res.stdout.strip()

    def xwayland_pid(self):
        """pid of this session's Xwayland, or None."""
        n = self.display_number
        for pid in self.session_pids():
            if proc_comm(pid) != "Xwayland":
                continue
            cmd = proc_cmdline(pid) or []
            if n is None or (":%d" % n) in cmd:
                return pid
        return None


def _status(code):
    if code is None:
        return "running"
    if code < 0:
        try:
            return "killed by %s" % signal.Signals(-code).name
        except ValueError:
            return "killed by signal %d" % -code
    return str(code)


def _tail(path, n):
    try:
        lines = Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return "(no log)"
    if len(lines) > n:
        return "... (%d lines cut)\n" % (len(lines) - n) + "\n".join(lines[-n:])
    return "\n".join(lines)


def _merge_env(base, extra):
    """base updated with extra; a value of None removes the variable."""
    env = dict(base)
    for k, v in (extra or {}).items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


def _parse_env(text):
    env = {}
    for line in text.splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", k):
                env[k] = v
    return env


def brief_windows(wins):
    if not wins:
        return "(none)"
    return "; ".join("#%s %s %r %s %d,%d %dx%d%s" % (
        w.get("id"), w.get("kind"), w.get("app_id"), repr(w.get("title")),
        w.get("x", 0), w.get("y", 0), w.get("width", 0), w.get("height", 0),
        " focused" if w.get("focused") else "") for w in wins)


def fills_area(win, area, max_side=8, max_top=64):
    """Check that a maximized window's frame exactly fills `area`.

    The content geometry excludes server-side decorations, so the content
    sits inside the area by the frame's insets: the same border on the
    left, right and bottom, and a title bar (>= border) on top.  Without
    decorations all insets are 0 and the content equals the area.
    Returns (top, side) or raises NotYet explaining the mismatch.
    """
    ax, ay, aw, ah = area
    x, y, w, h = geometry(win)
    side, top = x - ax, y - ay
    right, bottom = ax + aw - (x + w), ay + ah - (y + h)
    if not (0 <= side <= max_side and right == side and bottom == side
            and side <= top <= max_top):
        raise NotYet("content %r does not fill %r (insets left %d right %d "
                     "top %d bottom %d)" % (geometry(win), area, side, right,
                                            top, bottom))
    return top, side


def geometry(w):
    """(x, y, width, height) of a windows-list entry."""
    return (w["x"], w["y"], w["width"], w["height"])
