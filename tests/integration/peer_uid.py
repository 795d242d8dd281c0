# SPDX-License-Identifier: MIT
"""Clients run as other users, for the rule that a session without
accounts serves only the uid that runs it.

An Outsiders object keeps a world-readable folder (0755) with copies of
peer_probe.py and of the test clients, so that `runuser -u USER` can run
them whatever the permissions of the build tree, and a writable home for
each user it runs as (FreeRDP keeps its certificate store there). It can
also make ordinary users (useradd, removed again by close()).
"""

import contextlib
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import harness
from harness import T, TestFailure

PROBE = Path(__file__).resolve().parent / "peer_probe.py"


class Outsiders:
    def __init__(self):
        self.base = Path(tempfile.mkdtemp(prefix="oriel-peer-uid-"))
        os.chmod(self.base, 0o755)
        self.tag = secrets.token_hex(3)
        self.made_users = []
        self.homes = {}
        self.copy(PROBE)
        self.env = self._sanitizer_env()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def _sanitizer_env(self):
        """os.environ, with LSan's suppressions file copied where every user
        can read it (a sanitized client run as another user dies on an
        unreadable one)."""
        env = dict(os.environ)
        options = env.get("LSAN_OPTIONS", "").split(":")
        for i, option in enumerate(options):
            if option.startswith("suppressions="):
                options[i] = "suppressions=%s" % self.copy(option.split("=", 1)[1])
        if "LSAN_OPTIONS" in env:
            env["LSAN_OPTIONS"] = ":".join(options)
        return env

    def copy(self, path):
        """A copy of path in the shared folder, readable and runnable by all."""
        target = self.base / Path(path).name
        if not target.exists():
            shutil.copy(path, target)
            os.chmod(target, 0o755)
        return target

    def client(self, var):
        """A copy of one of our built executables (harness.exe(var))."""
        return str(self.copy(harness.exe(var)))

    def add_user(self, short):
        """A new ordinary user oripeer_<short>_<tag>; its name."""
        name = "oripeer_%s_%s" % (short[:6], self.tag)
        subprocess.run([harness.tool("useradd"), "--no-create-home", "--shell", "/bin/sh",
                        name], check=True, capture_output=True)
        self.made_users.append(name)
        return name

    def home(self, user):
        """A folder of user's own, in the shared one (0700)."""
        if user not in self.homes:
            path = self.base / ("home-" + user)
            path.mkdir(mode=0o700)
            entry = pwd.getpwnam(user)
            os.chown(path, entry.pw_uid, entry.pw_gid)
            self.homes[user] = path
        return self.homes[user]

    def argv(self, user, argv, env=None):
        """argv as user, with HOME in its own folder and env added."""
        pairs = ["HOME=%s" % self.home(user)] + \
            ["%s=%s" % kv for kv in sorted((env or {}).items())]
        return [harness.tool("runuser"), "-u", user, "--", "env"] + pairs + \
            [str(a) for a in argv]

    def run(self, user, argv, timeout=30, env=None):
        return subprocess.run(self.argv(user, argv, env), capture_output=True, text=True,
                              timeout=T(timeout), cwd=str(self.base), env=self.env)

    def probe(self, user, mode, target):
        """peer_probe.py as user: its one line."""
        res = self.run(user, ["python3", self.base / PROBE.name, mode, target])
        if res.returncode != 0:
            raise TestFailure("peer_probe.py as %s failed (%d): %s" % (
                user, res.returncode, res.stderr[-2000:]))
        return res.stdout.strip()

    def close(self):
        for name in self.made_users:
            with contextlib.suppress(KeyError):
                uid = pwd.getpwnam(name).pw_uid
                # Only what the test ran as that new user is left, if anything.
                for pid in processes_of(uid):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                harness.wait_for(lambda: not processes_of(uid), timeout=10,
                                 what="%s's processes to end" % name)
            subprocess.run([harness.tool("userdel"), name], capture_output=True)
        shutil.rmtree(self.base, ignore_errors=True)


def processes_of(uid):
    pids = []
    for pid in harness.all_pids():
        with contextlib.suppress(OSError):
            status = Path("/proc/%d/status" % pid).read_text()
            for line in status.splitlines():
                if line.startswith("Uid:") and int(line.split()[1]) == uid:
                    pids.append(pid)
    return pids


def uid_of(user):
    return pwd.getpwnam(user).pw_uid
