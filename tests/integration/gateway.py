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
import secrets
import shutil
import subprocess
import tempfile
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

    def __init__(self, names=("alice",)):
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
            # USER PID STARTED (date time, or -) CLIENTS PSS (N MiB, or -) DIR
            has_pss = f[-2] == "MiB"
            rows.append({"user": f[0], "pid": int(f[1]), "dir": f[-1],
                         "clients": f[-4] if has_pss else f[-3],
                         "pss_mib": float(f[-3]) if has_pss else None})
        return rows

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
        shutil.rmtree(self.base, ignore_errors=True)


def gone(path):
    """True once path is gone; NotYet while it is there (a wait_for predicate)."""
    if os.path.lexists(path):
        raise NotYet("%s is still there" % path)
    return True


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
