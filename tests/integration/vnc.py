# SPDX-License-Identifier: MIT
"""Helpers for the vnc suite (Python 3 standard library only).

The vnc tests start oriel through harness.Session with `--vnc 127.0.0.1:PORT`
(PORT from free_port()) or `--vnc-unix PATH`, and look at the session
through real VNC clients:

- oriel-test-vncviewer (tests/clients/vncviewer.c, libvncclient), found
  through ORIEL_TEST_VNCVIEWER or ORIEL_BUILD_DIR like the harness's other
  executables.  `Viewer` runs it in script mode: it keeps one connection,
  takes commands on stdin (type, keysym, pointer, cuttext, resize, full,
  snapshot) and logs every message from the server as a line (update,
  frame, cursor, resize, cuttext, ...), which the test waits for.
  `snapshot()` runs it once to grab a whole framebuffer.
- a raw socket (`rfb_handshake()`), for malformed-message cases;
- for VeNCrypt: the viewer's --user/--ca/--security/--bind options
  (Viewer(..., user=, ca=, security=, bind=)), users files with crypt(3)
  hashes (`write_users_file`), the certificate oriel logs
  (`certificate()`), raw VeNCrypt openings (`security_types`,
  `vencrypt_start`), a proxy that records a TCP stream
  (`RecordingProxy`) and an Xvfb with xwd screenshots for X viewers such
  as TigerVNC's (`Xvfb`, `read_xwd`).

Images come back as harness.Image, so the pixel helpers (count_colour,
first_mismatch, describe) work on VNC framebuffers and on screenshots alike.

Running one test by hand is as for the harness, plus the viewer:

    ORIEL_BUILD_DIR=$PWD/build python3 tests/integration/test_vnc_pixels.py
"""

import base64
import os
import re
import random
import socket
import struct
import subprocess
import threading
import time
from pathlib import Path

import harness
from harness import NotYet, T, TestFailure, expect, log

harness._EXES.setdefault("ORIEL_TEST_VNCVIEWER",
                         ["tests/clients/oriel-test-vncviewer"])

LOCALHOST = "127.0.0.1"


def free_port():
    """A TCP port that nothing holds on any address right now.

    Chosen below the kernel's ephemeral range (32768 and up), where the
    clients of tests running beside this one take their ports: a port from
    there could be some client's by the time oriel binds 0.0.0.0 to it.
    """
    for _ in range(200):
        port = random.randrange(10000, 32000)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
    raise TestFailure("no free TCP port between 10000 and 32000")


def vnc_args(port, *extra):
    return ["--vnc", "%s:%d" % (LOCALHOST, port)] + [str(a) for a in extra]


def _connect(address, timeout):
    if isinstance(address, (str, Path)) and str(address).startswith("/"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        target = str(address)
    else:
        host, port = address
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        target = (host, port)
    s.settimeout(timeout)
    try:
        s.connect(target)
    except OSError:
        s.close()
        raise
    return s


def wait_listening(session, address, timeout=harness.DEFAULT_TIMEOUT):
    """Wait until `address` ((host, port) or a Unix socket path) accepts a
    connection and greets with an RFB ProtocolVersion; return the greeting."""
    def greeting():
        try:
            s = _connect(address, 2)
        except OSError as e:
            raise NotYet("connect %r: %s" % (address, e))
        try:
            data = recv_exactly(s, 12, 5)
        except (OSError, TestFailure) as e:
            raise NotYet("no RFB greeting: %s" % e)
        finally:
            s.close()
        expect(data.startswith(b"RFB 003."),
               "%r greets with %r, not an RFB ProtocolVersion" % (address, data))
        return data
    return session.wait_for(greeting, timeout, "VNC on %r" % (address,))


def tcp(port):
    return (LOCALHOST, port)


def address_arg(address):
    """The viewer's argument for a (host, port) or a Unix socket path."""
    if isinstance(address, tuple):
        return "%s:%d" % address
    return str(address)


# ---------------------------------------------------------------------------
# Raw RFB

def recv_exactly(sock, n, timeout=10):
    sock.settimeout(T(timeout))
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise TestFailure("connection closed after %d of %d bytes (%r)"
                              % (len(buf), n, buf))
        buf += chunk
    return buf


def rfb_handshake(address, shared=True, password=None):
    """Connect and go through the RFB 3.8 handshake with security None (or
    VncAuth if password is given... not implemented: tests use None).
    Returns (socket, width, height, name)."""
    s = _connect(address, T(10))
    version = recv_exactly(s, 12)
    expect(version.startswith(b"RFB 003."), "bad greeting %r" % version)
    s.sendall(b"RFB 003.008\n")
    (ntypes,) = struct.unpack("B", recv_exactly(s, 1))
    if ntypes == 0:
        (n,) = struct.unpack(">I", recv_exactly(s, 4))
        raise TestFailure("server refused the connection: %r" % recv_exactly(s, n))
    types = recv_exactly(s, ntypes)
    expect(1 in types, "security type None not offered (got %r); "
           "rfb_handshake works on servers without a password only" % list(types))
    s.sendall(b"\x01")
    (result,) = struct.unpack(">I", recv_exactly(s, 4))
    expect(result == 0, "SecurityResult %d for security type None" % result)
    s.sendall(b"\x01" if shared else b"\x00")
    width, height = struct.unpack(">HH", recv_exactly(s, 4))
    recv_exactly(s, 16)  # pixel format
    (name_len,) = struct.unpack(">I", recv_exactly(s, 4))
    name = recv_exactly(s, name_len)
    return s, width, height, name


ENCODING_EXTENDED_CLIPBOARD = 0xC0A1E5CE
EXT_CLIP_TEXT = 1 << 0
EXT_CLIP_CAPS = 1 << 24
EXT_CLIP_PROVIDE = 1 << 28


class ExtClipboardClient:
    """A raw RFB client that announces the ExtendedClipboard pseudo-encoding
    and collects the clipboard texts the server provides (UTF-8), for the
    viewers libvncclient cannot play (it speaks Latin-1 only).  It asks for
    no framebuffer updates, so only ServerCutText and Bell can arrive."""

    def __init__(self, address):
        self.sock, self.width, self.height, _ = rfb_handshake(address)
        encodings = [0, ENCODING_EXTENDED_CLIPBOARD]
        self.sock.sendall(struct.pack(">BxH", 2, len(encodings)) +
                          b"".join(struct.pack(">I", e) for e in encodings))
        self.texts = []       # UTF-8 texts provided (str)
        self.latin1 = []      # plain ServerCutText payloads (bytes)
        self.caps = False     # the server announced its capabilities

    def _read_message(self, timeout):
        (kind,) = struct.unpack("B", recv_exactly(self.sock, 1, timeout))
        if kind == 2:  # Bell
            return
        expect(kind == 3, "ExtClipboardClient: unexpected server message %d" % kind)
        (length,) = struct.unpack(">xxxi", recv_exactly(self.sock, 7, timeout))
        if length >= 0:
            self.latin1.append(recv_exactly(self.sock, length, timeout))
            return
        payload = recv_exactly(self.sock, -length, timeout)
        (flags,) = struct.unpack(">I", payload[:4])
        if flags & EXT_CLIP_CAPS:
            self.caps = True
        elif flags & EXT_CLIP_PROVIDE and flags & EXT_CLIP_TEXT:
            import zlib
            data = zlib.decompress(payload[4:])
            (n,) = struct.unpack(">I", data[:4])
            self.texts.append(data[4:4 + n].rstrip(b"\0").decode("utf-8", "replace"))

    def wait_text(self, text, timeout=harness.DEFAULT_TIMEOUT):
        """Reads messages until the clipboard `text` was provided."""
        deadline = time.monotonic() + T(timeout)
        while text not in self.texts:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TestFailure("the ExtendedClipboard client did not get %r "
                                  "(got %r, plain %r)" % (text, self.texts, self.latin1))
            self.sock.settimeout(left)
            try:
                self._read_message(left)
            except socket.timeout:
                continue

    def close(self):
        self.sock.close()


def closed_by_peer(sock, timeout):
    """True if the server closes the connection within timeout (whatever it
    sends before that is read and dropped); False if it is still open."""
    deadline = time.monotonic() + T(timeout)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        sock.settimeout(left)
        try:
            data = sock.recv(65536)
        except socket.timeout:
            return False
        except ConnectionResetError:
            return True
        if not data:
            return True


# ---------------------------------------------------------------------------
# Images

def read_ppm(path):
    """A binary PPM (P6, maxval 255) as a harness.Image."""
    data = Path(path).read_bytes()
    fields = []
    pos = 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1  # the single whitespace byte after maxval
    if fields[0] != b"P6" or fields[3] != b"255":
        raise TestFailure("%s is not a P6 PPM with maxval 255" % path)
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos:pos + width * height * 3]
    if len(pixels) != width * height * 3:
        raise TestFailure("%s is truncated" % path)
    return harness.Image(width, height, 3, pixels, str(path))


def compare(a, b, rect, tolerance=0, exclude=None):
    """Pixels of rect that differ between images a and b (by more than
    tolerance in some channel): (count, first ((x, y), pa, pb) or None)."""
    x0, y0, w, h = a.clip(b.clip(rect))
    bad = 0
    first = None
    for y in range(y0, y0 + h):
        ra = a.data[y * a.stride + x0 * a.bpp:y * a.stride + (x0 + w) * a.bpp]
        rb = b.data[y * b.stride + x0 * b.bpp:y * b.stride + (x0 + w) * b.bpp]
        if exclude is None and a.bpp == b.bpp and tolerance == 0 and ra == rb:
            continue
        for j in range(w):
            if exclude is not None and harness._inside(exclude, x0 + j, y):
                continue
            pa = tuple(ra[j * a.bpp:j * a.bpp + 3])
            pb = tuple(rb[j * b.bpp:j * b.bpp + 3])
            if any(abs(pa[c] - pb[c]) > tolerance for c in range(3)):
                bad += 1
                if first is None:
                    first = ((x0 + j, y), pa, pb)
    return bad, first


def expect_same_pixels(vnc_img, shot, tolerance=0, exclude=None, what="VNC framebuffer"):
    harness.expect_eq((vnc_img.width, vnc_img.height), (shot.width, shot.height),
                      "%s size vs screenshot size" % what)
    bad, first = compare(vnc_img, shot, (0, 0, shot.width, shot.height),
                         tolerance, exclude)
    if bad:
        (x, y), pa, pb = first
        raise TestFailure("%s differs from the screenshot in %d pixels; first at "
                          "(%d,%d): #%s vs #%s" % (what, bad, x, y, harness.colour_hex(pa),
                                                   harness.colour_hex(pb)))


# ---------------------------------------------------------------------------
# The test viewer

def viewer_argv(address, mode_args, password_file=None, encodings=None,
                quality=None, cursor=True, bgr=False, timeout=20, user=None,
                ca=None, security=None, bind=None):
    argv = [harness.exe("ORIEL_TEST_VNCVIEWER"), "--timeout", str(int(T(timeout)))]
    if password_file is not None:
        argv += ["--password-file", str(password_file)]
    if user is not None:
        argv += ["--user", user]
    if ca is not None:
        argv += ["--ca", str(ca)]
    if security is not None:
        argv += ["--security", security]
    if bind is not None:
        argv += ["--bind", bind]
    if encodings is not None:
        argv += ["--encodings", encodings]
    if quality is not None:
        argv += ["--quality", str(quality)]
    if not cursor:
        argv.append("--no-cursor")
    if bgr:
        argv.append("--bgr")
    return argv + [address_arg(address)] + [str(a) for a in mode_args]


def snapshot(session, address, path=None, **options):
    """Grab the whole framebuffer once with a fresh viewer; a harness.Image."""
    if path is None:
        path = session.tmp / ("vnc-%03d.ppm" % next(session._counter))
    res = session.run_tool(viewer_argv(address, ["snapshot", path], **options),
                           timeout=30, check=False)
    if res.returncode != 0:
        session.check_alive()
        raise TestFailure("oriel-test-vncviewer snapshot exited %s:\n%s%s" % (
            res.returncode, _tail_lines(res.stdout), res.stderr[-3000:]))
    return read_ppm(path)


def _tail_lines(text, n=30):
    lines = text.splitlines()
    return "\n".join(lines[-n:]) + ("\n" if lines else "")


class Viewer(harness.Client):
    """oriel-test-vncviewer in script mode: one connection, commands on
    stdin, the server's messages as lines (kept in self.lines)."""

    def __init__(self, session, address, name="vncviewer", **options):
        argv = viewer_argv(address, ["script"], **options)
        n = next(session._counter)
        log_path = session.tmp / ("client-%02d-%s.log" % (n, name))
        self._lock = threading.Condition()
        self.lines = []
        self.eof = False
        if harness.VERBOSE:
            log("spawn:", " ".join(argv))
        with open(log_path, "ab") as logf:
            proc = subprocess.Popen(argv, env=session.env, stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=logf,
                                    start_new_session=True, cwd=str(session.tmp))
        super().__init__(session, name, argv, proc, log_path)
        session.clients.append(self)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        with open(self.log_path, "ab", buffering=0) as logf:
            for raw in self.proc.stdout:
                logf.write(b"> " + raw)
                line = raw.decode("utf-8", "replace").rstrip("\n")
                with self._lock:
                    self.lines.append(line)
                    self._lock.notify_all()
        with self._lock:
            self.eof = True
            self._lock.notify_all()

    # -- lines -------------------------------------------------------------

    def mark(self):
        """A position in self.lines, for lines_since()."""
        with self._lock:
            return len(self.lines)

    def lines_since(self, mark, prefix=None):
        with self._lock:
            got = self.lines[mark:]
        if prefix is not None:
            got = [l for l in got if l.split(" ", 1)[0] == prefix]
        return got

    def wait_line(self, match, since=0, timeout=harness.DEFAULT_TIMEOUT, what=None):
        """Wait for a line (after index `since`) for which match(line) is true
        (a str: the line starts with it); return the line."""
        if isinstance(match, str):
            prefix = match
            match = lambda l: l.startswith(prefix)  # noqa: E731
            what = what or "a %r line" % prefix
        deadline = time.monotonic() + T(timeout)
        pos = since
        with self._lock:
            while True:
                while pos < len(self.lines):
                    line = self.lines[pos]
                    pos += 1
                    if match(line):
                        return line
                    if line.startswith("error "):
                        raise TestFailure("%s reported: %s" % (self.name, line))
                if self.eof:
                    raise TestFailure("%s ended (exit %s) before %s; last lines:\n%s"
                                      % (self.name, self.proc.poll(), what,
                                         "\n".join(self.lines[-15:])))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TestFailure("timed out after %.1fs waiting for %s from %s; "
                                      "last lines:\n%s" % (
                                          T(timeout), what, self.name,
                                          "\n".join(self.lines[-15:])))
                self.session.check_alive()
                self._lock.wait(min(left, 0.25))

    def wait_connected(self, timeout=harness.DEFAULT_TIMEOUT):
        """(width, height) from the `connected` line."""
        def connected(l):
            if l in ("auth-failed", "disconnected"):
                raise TestFailure("%s could not connect: %s" % (self.name, l))
            return l.startswith("connected ")
        line = self.wait_line(connected, timeout=timeout, what="the connection")
        _, w, h = line.split()
        return int(w), int(h)

    def wait_exit_line(self, timeout=harness.DEFAULT_TIMEOUT):
        """The last line once the viewer exits (auth-failed, disconnected...)."""
        self.wait(timeout)
        self._reader.join(T(5))
        with self._lock:
            return self.lines[-1] if self.lines else ""

    # -- commands ----------------------------------------------------------

    def send(self, command, timeout=harness.DEFAULT_TIMEOUT):
        """Send one script command and wait until the viewer has sent it on."""
        expect("\n" not in command, "newline in a viewer command")
        mark = self.mark()
        try:
            self.proc.stdin.write((command + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise TestFailure("%s is gone (%s); last lines:\n%s" % (
                self.name, e, "\n".join(self.lines[-15:])))
        done = "done " + command
        self.wait_line(lambda l: l == done or l == "done " + command.rstrip(),
                       since=mark, timeout=timeout, what="%r to be sent" % command)

    def type(self, text):
        self.send("type " + text)

    def keysym(self, name, action="tap"):
        self.send("keysym %s %s" % (name, action))

    def pointer(self, x, y, mask=0):
        self.send("pointer %d %d %d" % (x, y, mask))

    def click(self, x, y, button=1):
        bit = 1 << (button - 1)
        self.pointer(x, y, 0)
        self.pointer(x, y, bit)
        self.pointer(x, y, 0)

    def cut_text(self, text):
        self.send("cuttext " + text)

    def resize(self, w, h):
        self.send("resize %d %d" % (w, h))

    def framebuffer(self):
        """The viewer's framebuffer as it is now (harness.Image)."""
        path = self.session.tmp / ("vnc-%s-%03d.ppm" % (
            self.name, next(self.session._counter)))
        self.send("snapshot %s" % path)
        return read_ppm(path)

    def wait_framebuffer(self, check, timeout=harness.DEFAULT_TIMEOUT, what="pixels"):
        """Wait until check(image) is truthy (it may raise NotYet); return it."""
        def look():
            return check(self.framebuffer())
        return self.session.wait_for(look, timeout, "%s at %s" % (what, self.name))

    def wait_colour(self, rect, rgb, tolerance=0, timeout=harness.DEFAULT_TIMEOUT,
                    exclude=None, what=None):
        def check(img):
            bad = img.first_mismatch(rect, rgb, tolerance, exclude)
            if bad is not None:
                (x, y), px = bad
                raise NotYet("pixel (%d,%d) is #%s; %r has %s" % (
                    x, y, harness.colour_hex(px), rect, img.describe(rect)))
            return img
        return self.wait_framebuffer(check, timeout, what or "%r to be #%s" % (
            rect, harness.colour_hex(rgb)))

    def wait_colour_gone(self, rect, rgb, what, timeout=harness.DEFAULT_TIMEOUT):
        """Wait until no pixel of rect shows rgb (a window that went away)."""
        def check(img):
            n = img.count_colour(rect, rgb)
            if n:
                raise NotYet("%d pixels of #%s still shown" % (n, harness.colour_hex(rgb)))
            return img
        return self.wait_framebuffer(check, timeout, what)

    def cut_texts(self, since=0):
        """Decoded ServerCutText payloads (Latin-1 bytes) since a mark."""
        return [base64.b64decode(l.split(" ", 1)[1] if " " in l else "")
                for l in self.lines_since(since, "cuttext")]

    def quiesce(self, quiet=1.0, timeout=harness.DEFAULT_TIMEOUT):
        """Wait until no update has arrived for `quiet` seconds."""
        deadline = time.monotonic() + T(timeout)
        while True:
            mark = self.mark()
            time.sleep(quiet)
            if not self.lines_since(mark, "frame"):
                return
            if time.monotonic() > deadline:
                raise TestFailure("%s still receives updates after %.1fs" % (
                    self.name, T(timeout)))

    def close(self):
        if self.alive():
            try:
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.flush()
            except OSError:
                pass
            try:
                self.proc.wait(T(5))
            except subprocess.TimeoutExpired:
                self.kill()


def updates(lines):
    """(x, y, w, h) of every `update` line."""
    rects = []
    for l in lines:
        parts = l.split()
        if parts and parts[0] == "update":
            rects.append(tuple(int(v) for v in parts[1:5]))
    return rects


def inside(inner, outer):
    ix, iy, iw, ih = inner
    ox, oy, ow, oh = outer
    return ox <= ix and oy <= iy and ix + iw <= ox + ow and iy + ih <= oy + oh


def grow(rect, left, top, right, bottom):
    x, y, w, h = rect
    return (x - left, y - top, w + left + right, h + top + bottom)


def write_password_file(session, lines):
    path = session.tmp / ("passwords-%03d" % next(session._counter))
    path.write_text("".join(l + "\n" for l in lines))
    os.chmod(path, 0o600)
    return path


def write_secret(session, secret):
    """A file holding one password, for the viewer's --password-file."""
    path = session.tmp / ("secret-%03d" % next(session._counter))
    path.write_text(secret + "\n")
    return path


# ---------------------------------------------------------------------------
# Shared test bodies

TYPED = "hello World@|ä€"


def typing_test(layout):
    """Typing from a viewer reaches xterm under keyboard layout `layout`.

    oriel runs with `[keyboard] layout = LAYOUT` in its config file.  xterm
    runs `read l` and writes the line to a file.  The viewer clicks into
    xterm (which focuses it), then types like a real viewer does: plain
    keysyms, Shift_L held around the capital, and characters that need
    Shift, AltGr or no key at all in the layout (@ | ä €), then Return.
    The file must hold exactly that line.
    """
    import shlex
    import tempfile
    from harness import tool

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-kbd-") as d:
        config = Path(d) / "oriel.ini"
        config.write_text("[keyboard]\nlayout = %s\n" % layout)
        with harness.Session(outputs=["1024x768"], config=config,
                             args=vnc_args(port)) as s:
            out = s.tmp / "typed.txt"
            script = 'read l; printf "%%s\\n" "$l" > %s.tmp && mv %s.tmp %s' % (
                shlex.quote(str(out)), shlex.quote(str(out)), shlex.quote(str(out)))
            xterm = s.spawn_x([tool("xterm"), "-u8", "-geometry", "80x10+40+60",
                               "-title", "vnc keyboard", "-e", "sh", "-c", script])
            win = s.wait_window(app_id="XTerm", kind="x11",
                                where=lambda w: w["width"] > 0 and w["height"] > 0)
            wait_listening(s, tcp(port))
            v = Viewer(s, tcp(port))
            v.wait_connected()
            v.click(win["x"] + win["width"] // 2, win["y"] + win["height"] // 2)
            s.wait_window(id=win["id"], where=lambda w: w["focused"],
                          what="xterm to be focused after the viewer's click")
            wid = s.wait_x_window("XTerm")

            s.wait_x_focus(wid)

            v.type("hello ")
            v.keysym("Shift_L", "down")
            v.type("W")
            v.keysym("Shift_L", "up")
            v.type("orld@|ä€")
            v.keysym("Return")

            def written():
                if not out.exists():
                    if not xterm.alive():
                        raise TestFailure("xterm exited (%s) without writing %s"
                                          % (xterm.proc.returncode, out))
                    raise NotYet("%s not written yet" % out)
                return out.read_text(encoding="utf-8", errors="replace")
            got = s.wait_for(written, what="xterm's shell to read the typed line")
            harness.expect_eq(got, TYPED + "\n", "line typed from the viewer "
                              "into xterm with layout %s" % layout)


# ---------------------------------------------------------------------------
# VeNCrypt: accounts, the certificate, raw VeNCrypt messages

VENCRYPT = 19
TLS_NONE, TLS_VNC, TLS_PLAIN = 257, 258, 259
X509_NONE, X509_VNC, X509_PLAIN = 260, 261, 262


def crypt_sha512(password):
    """A crypt(3) SHA-512 hash of password, as `mkpasswd -m sha-512` writes."""
    res = subprocess.run([harness.tool("openssl"), "passwd", "-6", "-stdin"],
                         input=password + "\n", capture_output=True, text=True)
    expect(res.returncode == 0 and res.stdout.startswith("$6$"),
           "openssl passwd -6 failed: %s" % res.stderr.strip())
    return res.stdout.strip()


def crypt_yescrypt(password):
    """A crypt(3) yescrypt hash of password (Debian's default, as `mkpasswd`
    writes it), through libcrypt."""
    import ctypes
    lib = ctypes.CDLL("libcrypt.so.1")
    lib.crypt_gensalt.restype = ctypes.c_char_p
    lib.crypt_gensalt.argtypes = [ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p,
                                  ctypes.c_int]
    lib.crypt.restype = ctypes.c_char_p
    lib.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    setting = lib.crypt_gensalt(b"$y$", 0, None, 0)
    expect(setting, "libcrypt made no yescrypt setting")
    result = lib.crypt(password.encode(), setting)
    expect(result and result.startswith(b"$y$"), "libcrypt made no yescrypt hash")
    return result.decode()


def write_users_file(session_or_dir, accounts, yescrypt=()):
    """A --vnc-users file from [(name, password[, "view-only"])]: lines
    NAME:HASH[:view-only], SHA-512 hashes, yescrypt for the names in
    `yescrypt`; returns its path (mode 0600)."""
    base = getattr(session_or_dir, "tmp", session_or_dir)
    path = Path(base) / ("users-%d" % os.getpid())
    n = 0
    while path.exists():
        n += 1
        path = Path(base) / ("users-%d-%d" % (os.getpid(), n))
    lines = []
    for entry in accounts:
        name, password = entry[0], entry[1]
        digest = crypt_yescrypt(password) if name in yescrypt else crypt_sha512(password)
        line = "%s:%s" % (name, digest)
        if len(entry) > 2 and entry[2]:
            line += ":" + entry[2]
        lines.append(line + "\n")
    path.write_text("".join(lines))
    os.chmod(path, 0o600)
    return path


CERT_LOG = re.compile(r"VNC: (made the|using the) certificate (\S+), "
                      r"SHA-256 fingerprint ([0-9A-F:]+)")


def certificate(session, timeout=harness.DEFAULT_TIMEOUT):
    """(path, fingerprint, made) from oriel's log line about its certificate:
    made is True when oriel generated it at this start."""
    def logged():
        m = CERT_LOG.search(session.log_text())
        if not m:
            raise NotYet("no certificate line in oriel's log yet")
        return m
    m = session.wait_for(logged, timeout, "oriel to log its certificate")
    return Path(m.group(2)), m.group(3), m.group(1) == "made the"


def pem_fingerprint(path):
    """SHA-256 fingerprint of a PEM certificate, as AB:CD:..."""
    import hashlib
    text = Path(path).read_text()
    body = text.split("-----BEGIN CERTIFICATE-----", 1)[1].split(
        "-----END CERTIFICATE-----", 1)[0]
    der = base64.b64decode("".join(body.split()))
    return ":".join("%02X" % b for b in hashlib.sha256(der).digest())


def other_certificate(directory):
    """A self-signed certificate oriel does not have (a viewer pinned to it
    must not trust oriel)."""
    cert = Path(directory) / "other-cert.pem"
    key = Path(directory) / "other-key.pem"
    res = subprocess.run(
        [harness.tool("openssl"), "req", "-x509", "-newkey", "ec", "-pkeyopt",
         "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-days", "2",
         "-keyout", str(key), "-out", str(cert)], capture_output=True, text=True)
    expect(res.returncode == 0, "openssl req failed: %s" % res.stderr.strip())
    return cert


def security_types(address, timeout=10):
    """The security types a fresh RFB 3.8 connection is offered (list)."""
    s = _connect(address, T(timeout))
    try:
        expect(recv_exactly(s, 12, timeout).startswith(b"RFB 003."), "no RFB greeting")
        s.sendall(b"RFB 003.008\n")
        (n,) = recv_exactly(s, 1, timeout)
        return list(recv_exactly(s, n, timeout)) if n else []
    finally:
        s.close()


def vencrypt_start(address, timeout=10):
    """Connect, choose VeNCrypt and agree on version 0.2.  Returns (socket,
    the sub-types offered)."""
    s = _connect(address, T(timeout))
    expect(recv_exactly(s, 12, timeout).startswith(b"RFB 003."), "no RFB greeting")
    s.sendall(b"RFB 003.008\n")
    (n,) = recv_exactly(s, 1, timeout)
    types = list(recv_exactly(s, n, timeout))
    expect(VENCRYPT in types, "VeNCrypt (19) not offered: %r" % types)
    s.sendall(bytes([VENCRYPT]))
    expect(recv_exactly(s, 2, timeout) == b"\x00\x02", "VeNCrypt version is not 0.2")
    s.sendall(b"\x00\x02")
    (ok,) = recv_exactly(s, 1, timeout)
    expect(ok == 0, "the server refused VeNCrypt 0.2 (%d)" % ok)
    (count,) = recv_exactly(s, 1, timeout)
    raw = recv_exactly(s, 4 * count, timeout)
    subtypes = list(struct.unpack(">%dI" % count, raw))
    return s, subtypes


# ---------------------------------------------------------------------------
# A recording TCP proxy

class RecordingProxy:
    """Listens on 127.0.0.1 and forwards every connection to `target`
    ((host, port)), keeping every byte of both directions: `to_server` and
    `to_viewer` (bytearrays, all connections together)."""

    def __init__(self, target):
        self.target = target
        self.to_server = bytearray()
        self.to_viewer = bytearray()
        self.lock = threading.Lock()
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind((LOCALHOST, 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        self.address = (LOCALHOST, self.port)
        self.closed = False
        self.sockets = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                viewer, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target, timeout=T(10))
            except OSError:
                viewer.close()
                continue
            server.settimeout(None)
            self.sockets += [viewer, server]
            threading.Thread(target=self._pump, args=(viewer, server, self.to_server),
                             daemon=True).start()
            threading.Thread(target=self._pump, args=(server, viewer, self.to_viewer),
                             daemon=True).start()

    def _pump(self, src, dst, record):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                with self.lock:
                    record += data
                dst.sendall(data)
        except OSError:
            pass
        for sock in (src, dst):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def recorded(self):
        """(to_server, to_viewer) as bytes, as recorded so far."""
        with self.lock:
            return bytes(self.to_server), bytes(self.to_viewer)

    def close(self):
        self.closed = True
        self.listener.close()
        for sock in self.sockets:
            try:
                sock.close()
            except OSError:
                pass


# ---------------------------------------------------------------------------
# An X server for X viewers (TigerVNC's), and its screenshots

class Xvfb(harness.Client):
    """An Xvfb of its own (display number chosen by Xvfb), for viewers that
    are X clients.  `display` is ":N"; it stops with the session."""

    def __init__(self, session, size=(1280, 800)):
        log_path = session.tmp / ("client-%02d-xvfb.log" % next(session._counter))
        read_fd, write_fd = os.pipe()
        argv = [harness.tool("Xvfb"), "-displayfd", str(write_fd), "-screen", "0",
                "%dx%dx24" % tuple(size), "-nolisten", "tcp", "-noreset"]
        with open(log_path, "wb") as logf:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=logf,
                                    stderr=subprocess.STDOUT, pass_fds=(write_fd,),
                                    start_new_session=True)
        os.close(write_fd)
        super().__init__(session, "xvfb", argv, proc, log_path)
        session.clients.append(self)
        deadline = time.monotonic() + T(15)
        buf = b""
        os.set_blocking(read_fd, False)
        try:
            while not buf.endswith(b"\n"):
                if proc.poll() is not None:
                    raise TestFailure("Xvfb exited with %s: %s" % (
                        proc.returncode, self.log()[-2000:]))
                if time.monotonic() > deadline:
                    raise TestFailure("Xvfb did not say its display number")
                try:
                    chunk = os.read(read_fd, 64)
                    if chunk:
                        buf += chunk
                        continue
                except BlockingIOError:
                    pass
                time.sleep(0.05)
        finally:
            os.close(read_fd)
        self.display = ":" + buf.decode().strip()
        self.env = dict(session.env)
        self.env["DISPLAY"] = self.display
        self.env.pop("WAYLAND_DISPLAY", None)
        self.env.pop("XAUTHORITY", None)

    def run(self, *argv, timeout=15, check=True):
        return self.session.run_tool(list(argv), timeout=timeout, check=check,
                                     env={"DISPLAY": self.display,
                                          "WAYLAND_DISPLAY": None})

    def screenshot(self, wid="root"):
        """The screen (or window wid) as a harness.Image, through xwd."""
        path = self.session.tmp / ("xvfb-%03d.xwd" % next(self.session._counter))
        argv = [harness.tool("xwd"), "-silent", "-out", str(path)]
        argv += ["-root"] if wid == "root" else ["-id", str(wid)]
        self.run(*argv)
        return read_xwd(path)


def read_xwd(path):
    """An XWD file (ZPixmap, 24/32 bits per pixel, TrueColor) as a
    harness.Image."""
    data = Path(path).read_bytes()
    fields = struct.unpack(">25I", data[:100])
    (header_size, _version, pixmap_format, _depth, width, height, _xoff,
     byte_order, _unit, _bit_order, _pad, bpp, bytes_per_line, _vclass,
     red_mask, green_mask, blue_mask, _bits_rgb, _cmap_entries, ncolors) = fields[:20]
    if pixmap_format != 2 or bpp not in (24, 32):
        raise TestFailure("%s: unsupported XWD (format %d, %d bpp)" % (
            path, pixmap_format, bpp))
    pos = header_size + 12 * ncolors
    step = bpp // 8
    out = bytearray(width * height * 3)

    def shift(mask):
        return (mask & -mask).bit_length() - 1
    shifts = [shift(m) for m in (red_mask, green_mask, blue_mask)]
    order = "<" if byte_order == 0 else ">"
    for y in range(height):
        row = data[pos + y * bytes_per_line:pos + y * bytes_per_line + width * step]
        if step == 4:
            values = struct.unpack(order + "%dI" % width, row)
        else:
            values = [int.from_bytes(row[i:i + 3], "little" if order == "<" else "big")
                      for i in range(0, len(row), 3)]
        if step == 4 and shifts == [16, 8, 0] and order == "<":
            # The common case: B, G, R, X in memory.
            o = y * width * 3
            out[o:o + width * 3:3] = row[2::4]
            out[o + 1:o + width * 3:3] = row[1::4]
            out[o + 2:o + width * 3:3] = row[0::4]
            continue
        o = y * width * 3
        for x, v in enumerate(values):
            out[o + 3 * x] = (v >> shifts[0]) & 0xff
            out[o + 3 * x + 1] = (v >> shifts[1]) & 0xff
            out[o + 3 * x + 2] = (v >> shifts[2]) & 0xff
    return harness.Image(width, height, 3, out, str(path))


def write_secret_in(directory, name, secret):
    """A file holding one password in directory (for --password-file)."""
    path = Path(directory) / ("secret-" + name)
    path.write_text(secret + "\n")
    os.chmod(path, 0o600)
    return path


def write_password_file_in(directory, lines):
    """A --vnc-password-file (lines SECRET or view-only:SECRET), mode 0600."""
    path = Path(directory) / "vnc-passwords"
    path.write_text("".join(l + "\n" for l in lines))
    os.chmod(path, 0o600)
    return path
