# SPDX-License-Identifier: MIT
"""Helpers for the rdp suite (Python 3 standard library only).

The rdp tests start oriel through harness.Session with
`--rdp 127.0.0.1:PORT` and look at the session through a real RDP
client: xfreerdp (Debian's freerdp2-x11), run in an Xvfb of its own.
What xfreerdp shows is read back from that Xvfb's root window with
`xwd`, parsed here, so the pixel helpers of harness.Image work on it; its
keyboard is driven with xdotool into the Xvfb.

Running one test by hand is as for the harness:

    ORIEL_BUILD_DIR=$PWD/build python3 tests/integration/test_rdp_pixels.py
"""

import contextlib
import os
import re
import signal
import struct
import subprocess
import time

import harness
from harness import NotYet, TestFailure, expect, log

LOCALHOST = "127.0.0.1"
CERT_LOG = re.compile(r"RDP: (made the|using the) certificate (\S+), "
                      r"SHA-256 fingerprint ([0-9A-F:]+)")


def rdp_args(port, *extra):
    return ["--rdp", "%s:%d" % (LOCALHOST, port)] + [str(a) for a in extra]


def wait_listening(session, port):
    session.wait_for(lambda: _listening(session, port), what="oriel to log its RDP listener")


def _listening(session, port):
    if ("RDP: listening on %s:%d" % (LOCALHOST, port)) not in session.log_text():
        raise NotYet("no RDP listener logged yet")
    return True


def fingerprint(session):
    """oriel's certificate fingerprint, as it logged it ("AB:CD:...")."""
    def logged():
        m = CERT_LOG.search(session.log_text())
        if not m:
            raise NotYet("no RDP certificate line in oriel's log yet")
        return m.group(3)
    return session.wait_for(logged, what="oriel to log its RDP certificate")


def _free_display():
    for n in range(140, 400):
        if not os.path.exists("/tmp/.X%d-lock" % n) and \
                not os.path.exists("/tmp/.X11-unix/X%d" % n):
            return n
    raise TestFailure("no free X display number for Xvfb")


class Xvfb:
    """An Xvfb for the client, and what its screen shows."""

    def __init__(self, session, size=(1280, 800)):
        self.session = session
        self.size = size
        self.number = _free_display()
        self.display = ":%d" % self.number
        self.log_path = session.tmp / ("xvfb-%d.log" % self.number)
        argv = [harness.tool("Xvfb"), self.display, "-screen", "0",
                "%dx%dx24" % size, "-nolisten", "tcp", "-noreset"]
        self.proc = subprocess.Popen(argv, stdout=open(self.log_path, "wb"),
                                     stderr=subprocess.STDOUT, start_new_session=True)
        session.wait_for(self._ready, what="Xvfb %s to start" % self.display)

    def _ready(self):
        if self.proc.poll() is not None:
            raise TestFailure("Xvfb exited: %s" % self.log_path.read_text())
        if not os.path.exists("/tmp/.X11-unix/X%d" % self.number):
            raise NotYet("no X socket yet")
        r = subprocess.run(["xdpyinfo"], env=self.env(), capture_output=True)
        if r.returncode != 0:
            raise NotYet("xdpyinfo failed")
        return True

    def env(self):
        env = dict(os.environ)
        env["DISPLAY"] = self.display
        for var in ("WAYLAND_DISPLAY", "XAUTHORITY"):
            env.pop(var, None)
        return env

    def screen(self):
        """The root window as a harness.Image."""
        r = subprocess.run(["xwd", "-root", "-silent"], env=self.env(),
                           capture_output=True, timeout=20)
        expect(r.returncode == 0, "xwd failed: %s" % r.stderr.decode(errors="replace"))
        return decode_xwd(r.stdout)

    def xdotool(self, *args):
        r = subprocess.run([harness.tool("xdotool")] + [str(a) for a in args],
                           env=self.env(), capture_output=True, timeout=20)
        expect(r.returncode == 0, "xdotool %s failed: %s" % (
            " ".join(map(str, args)), r.stderr.decode(errors="replace")))
        return r.stdout.decode()

    def cursor(self):
        """The X cursor shown now (XFixes): (width, height, xhot, yhot,
        number of opaque pixels, a digest of the ARGB pixels)."""
        import ctypes
        import hashlib
        x11 = ctypes.CDLL("libX11.so.6")
        xfixes = ctypes.CDLL("libXfixes.so.3")

        class Image(ctypes.Structure):
            _fields_ = [("x", ctypes.c_short), ("y", ctypes.c_short),
                        ("width", ctypes.c_ushort), ("height", ctypes.c_ushort),
                        ("xhot", ctypes.c_ushort), ("yhot", ctypes.c_ushort),
                        ("serial", ctypes.c_ulong), ("pixels", ctypes.POINTER(ctypes.c_ulong)),
                        ("atom", ctypes.c_ulong), ("name", ctypes.c_char_p)]
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        x11.XFree.argtypes = [ctypes.c_void_p]
        xfixes.XFixesQueryExtension.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int),
                                                ctypes.POINTER(ctypes.c_int)]
        xfixes.XFixesGetCursorImage.restype = ctypes.POINTER(Image)
        xfixes.XFixesGetCursorImage.argtypes = [ctypes.c_void_p]
        dpy = x11.XOpenDisplay(self.display.encode())
        expect(dpy, "cannot open %s" % self.display)
        try:
            ev, err = ctypes.c_int(), ctypes.c_int()
            expect(xfixes.XFixesQueryExtension(dpy, ctypes.byref(ev), ctypes.byref(err)),
                   "no XFIXES in the Xvfb")
            img = xfixes.XFixesGetCursorImage(dpy)
            expect(img, "XFixesGetCursorImage failed")
            c = img.contents
            n = c.width * c.height
            argb = [c.pixels[i] & 0xffffffff for i in range(n)]
            opaque = sum(1 for p in argb if (p >> 24) >= 128)
            digest = hashlib.sha1(struct.pack("<%dI" % n, *argb)).hexdigest()[:12]
            result = (c.width, c.height, c.xhot, c.yhot, opaque, digest)
            x11.XFree(img)
            return result
        finally:
            x11.XCloseDisplay(dpy)

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def decode_xwd(data):
    """An xwd dump of a 24/32-bit TrueColor ZPixmap as a harness.Image (RGB)."""
    if len(data) < 100:
        raise TestFailure("xwd wrote %d bytes" % len(data))
    fields = struct.unpack(">25I", data[:100])
    header_size, version, pixmap_format, depth, width, height = fields[:6]
    byte_order, bits_per_pixel, bytes_per_line = fields[7], fields[11], fields[12]
    red_mask, green_mask, blue_mask = fields[14], fields[15], fields[16]
    ncolors = fields[19]
    # 24 bits a pixel: what xwd writes once a GTK client (Remmina) runs.
    expect(version == 7 and pixmap_format == 2 and bits_per_pixel in (24, 32),
           "xwd format %d/%d/%d bpp is not handled" % (version, pixmap_format,
                                                       bits_per_pixel))
    step = bits_per_pixel // 8
    offset = header_size + ncolors * 12
    pixels = data[offset:offset + bytes_per_line * height]
    order = "<" if byte_order == 0 else ">"
    out = bytearray(width * height * 3)

    def shift(mask):
        return (mask & -mask).bit_length() - 1
    rs, gs, bs = shift(red_mask), shift(green_mask), shift(blue_mask)
    for y in range(height):
        row = pixels[y * bytes_per_line:y * bytes_per_line + width * step]
        if step == 3:
            row = b"".join(row[i:i + 3] + b"\0" if order == "<" else b"\0" + row[i:i + 3]
                           for i in range(0, len(row), 3))
        values = struct.unpack("%s%dI" % (order, width), row)
        base = y * width * 3
        for x, v in enumerate(values):
            i = base + x * 3
            out[i] = (v & red_mask) >> rs
            out[i + 1] = (v & green_mask) >> gs
            out[i + 2] = (v & blue_mask) >> bs
    return harness.Image(width, height, 3, out)


class XvfbClient:
    """An RDP client's process in an Xvfb, started by a subclass with its
    output in log_path: its log, whether it runs, its window and its end."""

    def log(self):
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def alive(self):
        return self.proc.poll() is None

    def window(self):
        """(x, y, width, height) of xfreerdp's window in the Xvfb."""
        def found():
            if not self.alive():
                raise TestFailure("xfreerdp exited (%s); its log:\n%s" % (
                    self.proc.returncode, self.log()))
            r = subprocess.run(["xdotool", "search", "--pid", str(self.proc.pid)],
                               env=self.xvfb.env(), capture_output=True)
            wids = r.stdout.split()
            for wid in wids:
                g = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid],
                                   env=self.xvfb.env(), capture_output=True, text=True)
                vals = dict(line.split("=", 1) for line in g.stdout.split() if "=" in line)
                if int(vals.get("WIDTH", 0)) > 50:
                    return (int(vals["X"]), int(vals["Y"]), int(vals["WIDTH"]),
                            int(vals["HEIGHT"]), wid.decode())
            raise NotYet("no xfreerdp window yet")
        return self.session.wait_for(found, what="xfreerdp's window")

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


class XFreeRDP(XvfbClient):
    """xfreerdp in an Xvfb, connected to oriel as user with password (None:
    none given)."""

    def __init__(self, session, xvfb, port, user, password, extra=(),
                 cert="/cert:ignore", name="xfreerdp"):
        self.session = session
        self.xvfb = xvfb
        self.log_path = session.tmp / ("%s.log" % name)
        argv = [harness.tool("xfreerdp"), "/v:%s:%d" % (LOCALHOST, port)]
        argv += ["/u:%s" % user] if user is not None else []
        argv += ["/p:%s" % password] if password is not None else []
        argv += [cert, "/sec:tls", "-clipboard", "-grab-keyboard",
                 "/log-level:INFO"] + list(extra)
        log("starting", " ".join(a if not a.startswith("/p:") else "/p:***" for a in argv))
        self.proc = subprocess.Popen(argv, env=xvfb.env(), stdout=open(self.log_path, "wb"),
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def wait_exit(self, timeout=harness.DEFAULT_TIMEOUT):
        try:
            return self.proc.wait(harness.T(timeout))
        except subprocess.TimeoutExpired:
            raise TestFailure("xfreerdp did not exit; its log:\n%s" % self.log())


def wait_shows_colour(session, xvfb, client, colour, pos, size, tolerance=12):
    """Wait until client's window shows colour over size at pos (desktop
    coordinates), and not just above and left of it; returns the screen."""
    def shown():
        x, y, w, h, _ = client.window()
        img = xvfb.screen()
        rect = (x + pos[0], y + pos[1], size[0], size[1])
        n = img.count_colour(rect, colour, tolerance=tolerance)
        if n < size[0] * size[1] * 0.98:
            raise NotYet("%d of %d pixels of the window are #%s; they are %s" % (
                n, size[0] * size[1], harness.colour_hex(colour), img.describe(rect)))
        outside = (x + pos[0] - 20, y + pos[1] - 20, 10, 10)
        if img.count_colour(outside, colour, tolerance=12) != 0:
            raise NotYet("outside the window has its colour: %s" % img.describe(outside))
        return img
    return session.wait_for(shown, what="xfreerdp to show #%s at %s" % (
        harness.colour_hex(colour), tuple(pos)))


def wait_settled(session, client, quiet=1.0):
    """Wait until the RdpClient decoded no paint for quiet seconds: through
    the graphics pipeline, lossy frames are refined losslessly once still,
    after what changed has shown."""
    state = {"mark": client.mark(), "since": time.monotonic()}

    def settled():
        if client.lines_since(state["mark"], "frame"):
            state["mark"] = client.mark()
            state["since"] = time.monotonic()
        if time.monotonic() - state["since"] < quiet:
            raise NotYet("paints still come")
        return True
    session.wait_for(settled, what="the client's paints to settle")


@contextlib.contextmanager
def client_in_xvfb(session, port, user, password, extra=(), keymap=None, **kwargs):
    """An Xvfb of its own (with an xkb layout, if given) and xfreerdp in it,
    logging on to oriel: yields (xvfb, client); both end with the block."""
    xvfb = Xvfb(session)
    client = None
    try:
        if keymap:
            r = subprocess.run(["setxkbmap", keymap], env=xvfb.env(),
                               capture_output=True, text=True, timeout=20)
            expect(r.returncode == 0, "setxkbmap %s: %s" % (keymap, r.stderr))
        client = XFreeRDP(session, xvfb, port, user, password, extra, **kwargs)
        yield xvfb, client
    finally:
        if client:
            client.close()
        xvfb.close()


def shows_window(session, xvfb, client, win, what="xfreerdp to show the window"):
    """Waits until xfreerdp's window shows a light window (an xterm with a
    white background) where win is in the session; returns xfreerdp's
    (x, y, width, height, wid) in the Xvfb."""
    cx = win["x"] + win["width"] // 2
    cy = win["y"] + win["height"] // 2

    def shown():
        x, y, w, h, wid = client.window()
        px = xvfb.screen().pixel(x + cx, y + cy)
        if min(px) < 200:
            raise NotYet("xfreerdp shows #%s where the window is" % harness.colour_hex(px))
        return x, y, w, h, wid
    return session.wait_for(shown, what=what)


def click_through(session, xvfb, client, win, what="the window to be focused "
                  "after a click through RDP"):
    """Clicks, in the Xvfb, into xfreerdp's window where it shows win (a
    light window in the session) and waits for the session to focus it;
    returns xfreerdp's window id in the Xvfb."""
    x, y, _, _, wid = shows_window(session, xvfb, client, win)
    xvfb.xdotool("windowfocus", "--sync", wid)
    xvfb.xdotool("mousemove", "--sync", x + win["x"] + win["width"] // 2,
                 y + win["y"] + win["height"] // 2)
    xvfb.xdotool("click", "1")
    session.wait_window(id=win["id"], where=lambda w: w["focused"], what=what)
    return wid


def xvfb_tool(xvfb, argv, input=None, check=True):
    """A short-lived command on the client's Xvfb (e.g. xclip)."""
    r = subprocess.run([str(a) for a in argv], env=xvfb.env(), capture_output=True,
                       input=input, timeout=harness.T(15))
    if check:
        expect(r.returncode == 0, "%s failed: %s" % (
            " ".join(map(str, argv)), r.stderr.decode(errors="replace")))
    return r


def line_xterm(session, geometry="80x10+40+60", title="rdp typing"):
    """An xterm in the session whose shell reads one line and writes it to a
    file: returns (xterm, its window, the file)."""
    import shlex
    out = session.tmp / ("typed-%s.txt" % title.replace(" ", "-"))
    q = shlex.quote(str(out))
    script = 'read l; printf "%%s\\n" "$l" > %s.tmp && mv %s.tmp %s' % (q, q, q)
    xterm = session.spawn_x([harness.tool("xterm"), "-u8", "-bg", "white", "-fg", "black",
                             "-geometry", geometry, "-title", title, "-e", "sh", "-c", script])
    win = session.wait_window(app_id="XTerm", kind="x11", title=title,
                              where=lambda w: w["width"] > 0 and w["height"] > 0)
    return xterm, win, out


# ---------------------------------------------------------------------------
# oriel-test-rdpclient (tests/clients/rdp_client.c): a libfreerdp-client2
# client that decodes with FreeRDP's GDI and reports paints as lines.

def rdpclient_argv(port, mode_args, user=None, password_file=None, fingerprint=None,
                   gfx=None, size=None, rfx=False, timeout=20, extra=(), monitors=None,
                   kbd=None, host=LOCALHOST, link=None):
    """link: a slow_link.SlowLink to run the client behind (host is then
    the link's server side)."""
    if link is not None:
        host = link.server
    argv = [harness.exe("ORIEL_TEST_RDPCLIENT"), "--timeout", str(int(harness.T(timeout)))]
    if user is not None:
        argv += ["--user", user]
    if password_file is not None:
        argv += ["--password-file", str(password_file)]
    if fingerprint is not None:
        argv += ["--fingerprint", fingerprint]
    if gfx is not None:
        argv += ["--gfx", gfx]
    if size is not None:
        argv += ["--size", "%dx%d" % tuple(size)]
    if rfx:
        argv.append("--rfx")
    if kbd is not None:
        argv += ["--kbd", "0x%x" % kbd]
    if monitors is not None:
        # [(w, h, x, y), ...], the primary first
        argv += ["--monitors", ",".join("%dx%d+%d+%d" % tuple(m) for m in monitors)]
    argv += [str(a) for a in extra] + ["%s:%d" % (host, port)] + [str(a) for a in mode_args]
    return link.argv(argv) if link is not None else argv


def rdpclient_snapshot(session, port, **options):
    """One fresh connection, once every pixel was painted: (returncode,
    harness.Image or None, stdout lines)."""
    import vnc
    path = session.tmp / ("rdp-%03d.ppm" % next(session._counter))
    res = session.run_tool(rdpclient_argv(port, ["snapshot", path], **options),
                           timeout=40, check=False)
    lines = res.stdout.splitlines()
    if res.returncode != 0:
        session.check_alive()
        return res.returncode, None, lines + res.stderr.splitlines()[-20:]
    return 0, vnc.read_ppm(path), lines


def _rdpclient_class():
    import vnc

    class RdpClient(vnc.Viewer):
        """oriel-test-rdpclient in watch mode: the lines it prints are kept
        (self.lines); snapshot/stats commands on stdin. Waiting for lines,
        framebuffer checks and quiesce() are vnc.Viewer's."""

        def __init__(self, session, port, name="rdpclient", **options):
            import threading
            argv = rdpclient_argv(port, ["watch"], **options)
            n = next(session._counter)
            log_path = session.tmp / ("client-%02d-%s.log" % (n, name))
            self._lock = threading.Condition()
            self.lines = []
            self.eof = False
            with open(log_path, "ab") as logf:
                proc = subprocess.Popen(argv, env=session.env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=logf,
                                        start_new_session=True, cwd=str(session.tmp))
            harness.Client.__init__(self, session, name, argv, proc, log_path)
            session.clients.append(self)
            self._reader = threading.Thread(target=self._read, daemon=True)
            self._reader.start()

        def wait_connected(self, timeout=harness.DEFAULT_TIMEOUT):
            """(width, height, gfx) from the `connected` line."""
            def connected(l):
                if l in ("auth-failed", "tls-failed", "disconnected"):
                    raise TestFailure("%s could not connect: %s" % (self.name, l))
                return l.startswith("connected ")
            _, w, h, gfx = self.wait_line(connected, timeout=timeout,
                                          what="the connection").split()
            return int(w), int(h), gfx

        def stats(self):
            """{paints, rects, bytes, counters, avc444_both, avc444_luma} as
            the client counts them now (the last two: AVC444 frames with
            both pictures, and with the luma picture alone)."""
            mark = self.mark()
            self.send("stats")
            line = [l for l in self.lines_since(mark, "stats")][0]
            paints, rects, nbytes, counters, both, luma = (int(v) for v in line.split()[1:7])
            return {"paints": paints, "rects": rects, "bytes": nbytes, "counters": counters,
                    "avc444_both": both, "avc444_luma": luma}

        def codecs(self):
            return [l.split()[1] for l in self.lines_since(0, "codec")]

    return RdpClient


def RdpClient(session, port, name="rdpclient", **options):
    """A watching oriel-test-rdpclient (see _rdpclient_class)."""
    return _rdpclient_class()(session, port, name=name, **options)


def write_secret(session, text):
    """A mode-0600 file holding one line, for --password-file."""
    path = session.tmp / ("secret-%03d" % next(session._counter))
    path.write_text(text + "\n")
    os.chmod(path, 0o600)
    return path


def patch_window_at(session, colour, size, pos, patch, patch_colour):
    """A colour window at pos whose rectangle `patch` (window coordinates)
    toggles to patch_colour and back on each SIGUSR1, damaging only itself.
    Returns the colour client once the window is there."""
    client = session.spawn_colour(colour, size=size, title="patch", app_id="org.oriel.test.p",
                                  extra=["--patch", "%d,%d,%d,%d" % tuple(patch),
                                         "--patch-colour", harness.colour_hex(patch_colour)])
    client.wait_ready(size=size)
    win = session.wait_window(app_id="org.oriel.test.p")
    session.orielctl("move", win["id"], *pos)
    session.wait_window(id=win["id"], where=lambda w: (w["x"], w["y"]) == tuple(pos))
    return client


def keyboard_config(directory, layout, user, password):
    """An oriel.ini in directory serving RDP from its [rdp] section, on a free
    loopback port, to user with password, under the xkb layout; returns
    (config path, port)."""
    import vnc
    users = vnc.write_users_file(directory, [(user, password)])
    port = vnc.free_port()
    config = directory / "oriel.ini"
    config.write_text("[keyboard]\nlayout = %s\n\n[rdp]\nlisten = %s:%d\nusers = %s\n"
                      % (layout, LOCALHOST, port, users))
    return config, port
