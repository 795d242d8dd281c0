# SPDX-License-Identifier: MIT
"""Helpers for the gateway suite (Python 3 standard library only).

The tests run as root. They make users origw_<random> with useradd and
chpasswd, a PAM service file of their own in /etc/pam.d, and a runtime dir
of their own for the sessions (root's, 0755, as /run/oriel is), and remove
all of it afterwards. oriel-gateway is run from the build tree with
--oriel pointing at the built oriel.
"""

import contextlib
import os
import pwd
import re
import itertools
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import harness
from harness import NotYet, TestFailure, expect, log, tool


def gateway_exe():
    build = Path(os.environ.get("ORIEL_BUILD_DIR", harness.REPO / "build"))
    path = build / "gateway" / "oriel-gateway"
    expect(os.access(path, os.X_OK), "no oriel-gateway in %s" % build)
    return str(path)


def run(argv, stdin=None, check=True, timeout=60):
    # Files, not pipes: a session's monitor keeps the gateway's stderr open.
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        result = subprocess.run(argv, input=stdin, stdout=out, stderr=err, text=True,
                                timeout=harness.T(timeout))
        out.seek(0)
        err.seek(0)
        result.stdout, result.stderr = out.read(), err.read()
    if check and result.returncode != 0:
        raise TestFailure("%s exited %d: %s%s" % (" ".join(argv), result.returncode,
                                                  result.stdout, result.stderr))
    return result


PAM_TEXT = ("@include common-auth\n@include common-account\n"
            "@include common-session-noninteractive\n")


class Host:
    """Users, a PAM service and a runtime dir, made for one test."""

    def __init__(self, names=("alice",), config=None):
        if os.geteuid() != 0:
            raise TestFailure("the gateway suite runs as root (useradd, PAM, setuid)")
        self.tag = secrets.token_hex(3)
        self.users = {}
        self.passwords = {}
        self.service = "oriel-gwtest-" + self.tag
        self.base = Path(tempfile.mkdtemp(prefix="oriel-gw-"))
        os.chmod(self.base, 0o755)
        self.runtime_dir = self.base / "sessions"
        self.log_path = self.base / "gateway.log"
        self.clients = []
        self.fronts = []
        self.counter = itertools.count(1)
        if config is not None:
            self.config_path().write_text(config)
        Path("/etc/pam.d", self.service).write_text(PAM_TEXT)
        try:
            for short in names:
                name = "origw_%s_%s" % (short[:6], self.tag)
                run([tool("useradd"), "--create-home", "--shell", "/bin/sh", name])
                self.users[short] = name
                self.passwords[short] = "pw-%s-%s" % (short, secrets.token_hex(6))
            run([tool("chpasswd")], stdin="".join(
                "%s:%s\n" % (self.users[s], self.passwords[s]) for s in self.users))
        except BaseException:
            self.close()
            raise

    def uid(self, short):
        return pwd.getpwnam(self.users[short]).pw_uid

    def home(self, short):
        return pwd.getpwnam(self.users[short]).pw_dir

    def args(self, *extra):
        return ["--pam-service", self.service, "--runtime-dir", str(self.runtime_dir),
                "--oriel", harness.exe("ORIEL"), "--config", str(self.config_path())] + \
            [str(a) for a in extra]

    def config_path(self):
        path = self.base / "gateway.ini"
        if not path.exists():
            path.write_text("[session]\ncommand = xterm\n")
        return path

    def gateway(self, *args, check=True):
        return run([gateway_exe()] + self.args(*args), check=check)

    def start(self, short, *extra):
        """--start: the session's oriel pid."""
        out = self.gateway("--start", self.users[short], *extra).stdout
        words = out.split()
        expect("pid" in words, "--start printed no pid: %r" % out)
        return int(words[words.index("pid") + 1])

    def sessions(self):
        """--list as rows: dicts of user, pid, clients, dir."""
        out = self.gateway("--list").stdout.splitlines()
        rows = []
        for line in out[1:]:
            f = line.split()
            # USER PID (or -) STARTED (date time, or -) CLIENTS (or no-answer)
            # PSS (N MiB, or -) DIR
            has_pss = f[-2] == "MiB"
            rows.append({"user": f[0], "pid": int(f[1]) if f[1] != "-" else None,
                         "dir": f[-1],
                         "clients": f[-4] if has_pss else f[-3],
                         "pss_mib": float(f[-3]) if has_pss else None})
        return rows

    def her_session(self, short, clients="1"):
        """--list's one row: short's session, with clients clients, running
        as short; returns the row."""
        rows = self.sessions()
        expect([(r["user"], r["clients"]) for r in rows] == [(self.users[short], clients)],
               "--list: %s's one session with %s client(s): %r" % (short, clients, rows))
        expect(_uid(rows[0]["pid"]) == self.uid(short), "%s's oriel's uid" % short)
        return rows[0]

    def session_log(self, row):
        """The text of the log of --list's session row (its runtime dir's session.log)."""
        path = self.runtime_dir / os.path.basename(row["dir"]) / "session.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def session_dir(self, pid):
        for row in self.sessions():
            if row["pid"] == pid:
                return row["dir"]
        raise TestFailure("no session with pid %d in --list" % pid)

    def session_pids(self, short):
        """Every process of the user, by pid."""
        uid = self.uid(short)
        return [p for p in harness.all_pids() if _uid(p) == uid]

    def close(self):
        for client in self.clients:
            if client.alive():
                client.kill()
        for front in self.fronts:
            front.stop(signal.SIGKILL)
        for short, name in self.users.items():
            run([gateway_exe(), "--runtime-dir", str(self.runtime_dir), "--terminate", name],
                check=False)
            run(["pkill", "-KILL", "-u", name], check=False)
            uid = pwd.getpwnam(name).pw_uid
            harness.wait_for(lambda: _no_processes_of(uid), timeout=10,
                             what="%s's processes to end" % name)
            run([tool("userdel"), "--remove", name], check=False)
        with contextlib.suppress(FileNotFoundError):
            Path("/etc/pam.d", self.service).unlink()
        if os.environ.get("ORIEL_TEST_KEEP", "") in ("", "0"):
            shutil.rmtree(self.base, ignore_errors=True)
        else:
            print("kept %s" % self.base)


def gone(path):
    """True once path is gone; NotYet while it is there (a wait_for predicate)."""
    if os.path.lexists(path):
        raise NotYet("%s is still there" % path)
    return True


# A TLS record header announcing a ClientHello, and its first bytes only.
PARTIAL_CLIENT_HELLO = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(16)


class Flood:
    """Connections to address that never finish logging in: a subclass's
    one(i) opens the i-th; run() opens them until stop is set. sockets
    holds (socket, when it was opened)."""

    def __init__(self, address):
        self.address = address
        self.sockets = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.errors = []
        self.n = 0

    def connect(self, source):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((source, 0))
        s.settimeout(harness.T(10))
        s.connect(self.address)
        return s

    def keep(self, s, opened):
        with self.lock:
            self.sockets.append((s, opened))
            self.n += 1

    def open(self, source, steps=None):
        """A connection from source, taken through steps(s) as far as the
        gateway lets it (pushed out by a newer guest first: closed too)."""
        s = self.connect(source)
        opened = time.monotonic()
        try:
            if steps:
                steps(s)
        except (OSError, TestFailure):
            pass
        self.keep(s, opened)

    def one(self, i):
        raise NotImplementedError

    def run(self):
        i = 0
        while not self.stop.is_set():
            try:
                self.one(i)
            except OSError as e:
                self.errors.append(str(e))
            i += 1

    def start(self, n_threads=2):
        """Goes on opening connections from threads until finish()."""
        self.threads = [threading.Thread(target=self.run, daemon=True)
                        for _ in range(n_threads)]
        for t in self.threads:
            t.start()

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(harness.T(30))

    @staticmethod
    def half_x509plain(s):
        """RFB and VeNCrypt up to X509Plain, then half a TLS ClientHello."""
        import vnc
        expect(vnc.recv_exactly(s, 12, 10).startswith(b"RFB 003."), "no RFB greeting")
        s.sendall(b"RFB 003.008\n")
        (n,) = vnc.recv_exactly(s, 1, 10)
        expect(vnc.VENCRYPT in vnc.recv_exactly(s, n, 10), "no VeNCrypt offered")
        s.sendall(bytes([vnc.VENCRYPT]))
        vnc.recv_exactly(s, 2, 10)
        s.sendall(b"\x00\x02")
        (ok, count) = vnc.recv_exactly(s, 2, 10)
        subtypes = struct.unpack(">%dI" % count, vnc.recv_exactly(s, 4 * count, 10))
        expect(ok == 0 and vnc.X509_PLAIN in subtypes, "no X509Plain: %r" % (subtypes,))
        s.sendall(struct.pack(">I", vnc.X509_PLAIN))
        expect(vnc.recv_exactly(s, 1, 10) == b"\x01", "X509Plain not accepted")
        s.sendall(PARTIAL_CLIENT_HELLO)

    def expect_closed_by_deadline(self, waiter, deadline):
        """Every connection is closed, the last ones by their deadline (with
        slack for a loaded machine). waiter: a Session or Front."""
        last = max(opened for _s, opened in self.sockets)
        wait_all_closed(waiter, self.sockets, deadline + 20)
        expect(time.monotonic() - last <= harness.T(deadline + 10),
               "the flood's last connections were closed %.1f s after they opened" %
               (time.monotonic() - last))

    def close(self):
        for s, _opened in self.sockets:
            s.close()


def routing_token_request(token):
    """A TPKT with an X.224 Connection Request bringing token, asking for TLS."""
    body = b"Cookie: msts=%s\r\n" % token.encode() + struct.pack("<BBHI", 1, 0, 8, 1)
    length = 11 + len(body)
    return bytes([3, 0, length >> 8, length & 0xff, length - 5, 0xe0, 0, 0, 0, 0, 0]) + body


def token_answered(front, token, source="127.0.0.1"):
    """Whether the gateway's RDP front answers a connection from source
    bringing token (it closes one with an unknown token without a byte)."""
    s = socket.create_connection(("127.0.0.1", front.rdp_port), harness.T(10),
                                 source_address=(source, 0))
    try:
        s.sendall(routing_token_request(token))
        s.settimeout(harness.T(20))
        try:
            return s.recv(64) != b""
        except ConnectionError:
            return False
    finally:
        s.close()


def closed(s):
    """True when the gateway closed s (EOF or reset); False while open."""
    s.setblocking(False)
    try:
        data = s.recv(65536)
        return not data  # data: its greeting, or a TLS alert: read on
    except BlockingIOError:
        return False
    except ConnectionError:
        return True


def wait_all_closed(front, sockets, timeout):
    """Wait until the gateway closed every socket of sockets (a Flood's)."""
    def all_closed():
        open_ = [s for s, _opened in sockets if not closed(s)]
        if open_:
            raise NotYet("%d of %d flood connections still open" % (
                len(open_), len(sockets)))
        return True
    front.wait_for(all_closed, timeout, "every flood connection to be closed")


def _no_processes_of(uid):
    left = [p for p in harness.all_pids() if _uid(p) == uid and
            harness.proc_state(p) != "Z"]
    if left:
        raise NotYet("processes left: %s" % ", ".join(
            "%d %s" % (p, harness.proc_comm(p)) for p in left))
    return True


def _uid(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("Uid:"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    return None


def proc_uid(pid):
    return _uid(pid)


def children_named(pids, name):
    return [p for p in pids if harness.proc_comm(p) == name]


def socket_inodes(pid):
    """The inodes of pid's sockets."""
    found = set()
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        m = re.match(r"socket:\[(\d+)\]", target)
        if m:
            found.add(int(m.group(1)))
    return found


def established_on(port):
    """The inodes of established TCP sockets on 127.0.0.1:port (server side)."""
    inodes = set()
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], int(fields[9])
            if state == "01" and int(local.split(":")[1], 16) == port:
                inodes.add(inode)
    return inodes


# ---------------------------------------------------------------------------
# The gateway serving VNC, and what a person sees through it

# The session command of the viewer tests: an xterm of a colour nobody else
# draws, whose shell (cat) writes each line typed into it to a file of hers.
XTERM_BG = (0x20, 0x50, 0xa0)
XTERM_COMMAND = ("xterm -geometry 60x12 -bg rgb:20/50/a0 -fg white -cr white "
                 "-e sh -c 'cat > \"$HOME/typed.txt\"'")
# xterm draws its background solid; the viewer may get it through Tight.
XTERM_TOLERANCE = 4


class Front(harness.Client):
    """oriel-gateway serving VNC on 127.0.0.1:port for host's users.

    It also serves as the `session` that vnc.Viewer, vnc.Xvfb and
    vnc.snapshot expect: tmp, env, clients, run_tool, wait_for, check_alive.
    Its certificate is made on first use in host's XDG_STATE_HOME, so a
    restarted gateway shows the same one."""

    def __init__(self, host, *extra, port=None, rdp=False, vnc=True, env=None,
                 rdp_host="127.0.0.1"):
        self.host = host
        self.tmp = host.base
        self.clients = host.clients
        self._counter = host.counter
        self.port = port or vnc_free_port()
        self.address = ("127.0.0.1", self.port)
        self.env = dict(os.environ, XDG_STATE_HOME=str(host.base / "state"), **(env or {}))
        for var in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"):
            self.env.pop(var, None)
        n = next(self._counter)
        log_path = host.base / ("gateway-%02d.log" % n)
        # rdp: also --rdp on rdp_host:rdp_port; vnc=False: RDP alone.
        self.rdp_port = vnc_free_port() if rdp else None
        listen = ["--vnc", "127.0.0.1:%d" % self.port] if vnc else []
        if rdp:
            listen += ["--rdp", "%s:%d" % (rdp_host, self.rdp_port)]
        argv = [gateway_exe()] + host.args(*listen, *extra)
        with open(log_path, "wb") as logf:
            proc = subprocess.Popen(argv, env=self.env, stdin=subprocess.DEVNULL,
                                    stdout=logf, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        super().__init__(self, "oriel-gateway", argv, proc, log_path)
        host.fronts.append(self)
        self.cert = host.base / "state" / "oriel" / "tls" / "cert.pem"
        # The RDP front logs its certificate once it listens, after the VNC one.
        said = "RDP certificate SHA-256" if rdp else "VNC certificate SHA-256"
        self.wait_for(lambda: (said in self.log() and
                               self.cert.exists()) or _not_yet("no certificate yet"),
                      what="the gateway to make its certificate")
        import vnc as vnc_helpers
        if vnc:
            vnc_helpers.wait_listening(self, self.address)


    def check_alive(self):
        if self.proc.poll() is not None:
            raise TestFailure("oriel-gateway exited with %s; its log:\n%s" % (
                self.proc.returncode, self.log()[-4000:]))

    def wait_for(self, predicate, timeout=harness.DEFAULT_TIMEOUT, what="condition",
                 alive=True):
        return harness.wait_for(predicate, timeout, what,
                                alive=self.check_alive if alive else None)

    def log_text(self):
        return self.log()

    def run_tool(self, argv, timeout=15, check=True, env=None, x=False):
        argv = [str(a) for a in argv]
        full_env = dict(self.env)
        for k, v in (env or {}).items():
            if v is None:
                full_env.pop(k, None)
            else:
                full_env[k] = v
        try:
            res = subprocess.run(argv, env=full_env, stdin=subprocess.DEVNULL,
                                 capture_output=True, text=True, timeout=harness.T(timeout),
                                 cwd=str(self.tmp))
        except subprocess.TimeoutExpired:
            raise TestFailure("%s did not finish within %.1fs" % (" ".join(argv),
                                                                  harness.T(timeout)))
        if check and res.returncode != 0:
            raise TestFailure("%s failed with %s:\n%s%s" % (" ".join(argv), res.returncode,
                                                           res.stdout, res.stderr))
        return res

    def spawn(self, argv, name=None, env=None):
        argv = [str(a) for a in argv]
        name = name or Path(argv[0]).name
        log_path = self.tmp / ("client-%02d-%s.log" % (next(self._counter), name))
        full_env = dict(self.env)
        for k, v in (env or {}).items():
            if v is None:
                full_env.pop(k, None)
            else:
                full_env[k] = v
        with open(log_path, "wb") as logf:
            proc = subprocess.Popen(argv, env=full_env, stdin=subprocess.DEVNULL,
                                    stdout=logf, stderr=subprocess.STDOUT,
                                    start_new_session=True, cwd=str(self.tmp))
        client = harness.Client(self, name, argv, proc, log_path)
        self.clients.append(client)
        return client

    def viewer_options(self, short, password=None, **extra):
        """The test viewer's options for logging in as short."""
        pwfile = self.tmp / ("pw-%s-%d" % (short, next(self._counter)))
        pwfile.write_text((password if password is not None else
                           self.host.passwords[short]) + "\n")
        pwfile.chmod(0o600)
        user = self.host.users.get(short, short)
        return dict(user=user, password_file=pwfile, ca=self.cert, security="vencrypt",
                    **extra)

    def login(self, short, password=None, bind=None, timeout=40):
        """One snapshot through the gateway as short: (returncode, output, image)."""
        import vnc
        path = self.tmp / ("snap-%03d.ppm" % next(self._counter))
        opts = self.viewer_options(short, password, bind=bind)
        argv = vnc.viewer_argv(self.address, ["snapshot", path], timeout=timeout, **opts)
        res = self.run_tool(argv, timeout=timeout + 15, check=False)
        image = vnc.read_ppm(path) if res.returncode == 0 and path.exists() else None
        return res.returncode, res.stdout + res.stderr, image

    def viewer(self, short, name="viewer", **extra):
        """A script-mode test viewer logged in as short (connected)."""
        import vnc
        v = vnc.Viewer(self, self.address, name=name, **self.viewer_options(short, **extra))
        return v

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, sig)
            try:
                self.proc.wait(harness.T(20))
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def _not_yet(reason):
    raise NotYet(reason)


def vnc_free_port():
    import vnc
    return vnc.free_port()


def xterm_box(image, tolerance=XTERM_TOLERANCE, min_pixels=2000):
    """The bounding box (x, y, w, h) of the xterm's background colour in
    image, or NotYet while too little of it shows."""
    xs, ys, n = [], [], 0
    w, h = image.width, image.height
    # Every 2nd pixel, in both directions: enough for a 60x12 xterm.
    for y in range(0, h, 2):
        for x in range(0, w, 2):
            p = image.pixel(x, y)
            if all(abs(p[c] - XTERM_BG[c]) <= tolerance for c in range(3)):
                xs.append(x)
                ys.append(y)
                n += 1
    if n * 4 < min_pixels:
        raise NotYet("%d pixels of the xterm's colour; the screen shows %s" % (
            n * 4, image.describe((0, 0, w, h))))
    return (min(xs), min(ys), max(xs) - min(xs) + 2, max(ys) - min(ys) + 2)


def wait_her_xterm(client):
    """The box of her xterm once client shows it, a window of an xterm's size."""
    box = client.wait_framebuffer(xterm_box, timeout=30, what="her xterm")
    log("her xterm shows at %r" % (box,))
    expect(box[2] >= 300 and box[3] >= 120, "the xterm's window is %r" % (box,))
    return box


def wait_xterm_in_xvfb(front, client, xvfb, name):
    """The box of her xterm once the window of client (name: rdesktop,
    xfreerdp) in xvfb shows it, a window of an xterm's size."""
    def shows_xterm():
        if not client.alive():
            raise TestFailure("%s exited (%s):\n%s" % (
                name, client.proc.returncode, client.log()[-3000:]))
        return xterm_box(xvfb.screen())
    box = front.wait_for(shows_xterm, 60, "%s's window to show her xterm" % name)
    log("%s's window shows her xterm at %r" % (name, box))
    expect(box[2] >= 300 and box[3] >= 120, "the xterm's window is %r" % (box,))
    return box
