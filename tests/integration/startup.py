# SPDX-License-Identifier: MIT
"""Starting oriel in a way that must fail, and checking that it failed cleanly.

A failed start, as a person sees it:
- oriel exits on its own with a non-zero status (not by a signal);
- the last line of its stderr is "oriel: WHAT FAILED: WHAT TO DO";
- nothing it started is left: no process carrying its XDG_RUNTIME_DIR
  (a fork of oriel, Xwayland, the session command, a bus it spawned);
- its runtime dir is as empty as it was (no socket, lock or bus file);
- the session command never ran.

Each run gets a fresh runtime dir, HOME and config dir, and `--dbus spawn`,
so that oriel starts a bus of its own and must stop it.
"""
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import harness
from harness import NotYet, T, TestFailure, expect

# "oriel: WHAT FAILED; WHAT TO DO", as in the examples of the format.
LINE = re.compile(r"^oriel: [^;]+; .+$")


class Failure:
    """What one failed start left: status, stderr, leftovers."""

    def __init__(self, status, stderr, runtime_dir, ran):
        self.status = status
        self.stderr = stderr
        self.runtime_dir = runtime_dir
        self.command_ran = ran

    @property
    def last_line(self):
        lines = [l for l in self.stderr.splitlines() if l.strip()]
        return lines[-1] if lines else ""


def _session_pids(runtime_dir):
    needle = ("XDG_RUNTIME_DIR=%s" % runtime_dir).encode()
    pids = []
    for pid in harness.all_pids():
        if pid == os.getpid():
            continue
        try:
            with open("/proc/%d/environ" % pid, "rb") as f:
                items = f.read().split(b"\0")
        except OSError:
            continue
        if needle in items and harness.pid_alive(pid):
            pids.append(pid)
    return pids


def start_failing(args, env=None, wrapper=(), command=True, timeout=30):
    """Runs oriel with args (and a session command unless command is
    False); returns a Failure after checking what every failed start must
    do. The caller checks the message."""
    oriel = harness.exe("ORIEL")
    tmp = Path(tempfile.mkdtemp(prefix="oriel-startup-"))
    runtime = tmp / "runtime"
    home = tmp / "home"
    for d in (runtime, home / ".config"):
        d.mkdir(parents=True)
    os.chmod(runtime, 0o700)
    marker = tmp / "session-command-ran"
    base = {k: v for k, v in os.environ.items() if k not in (
        "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS",
        "XAUTHORITY", "WLR_BACKENDS", "WLR_RENDERER", "WLR_XWAYLAND")}
    base.update({
        "XDG_RUNTIME_DIR": str(runtime),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "WLR_LIBINPUT_NO_DEVICES": "1",
        "LC_ALL": "C.UTF-8",
    })
    base.update(env or {})
    argv = list(wrapper) + [oriel, "--dbus", "spawn"] + list(args)
    if command:
        argv += ["--", "sh", "-c", 'touch "$0"; exec sleep 1000', str(marker)]
    stderr_path = tmp / "stderr"
    try:
        with open(stderr_path, "wb") as err:
            proc = subprocess.Popen(argv, env=base, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=err,
                                    start_new_session=True)
        try:
            status = proc.wait(T(timeout))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise TestFailure("oriel %s did not exit within %.0fs" % (
                " ".join(args), T(timeout)))
        stderr = stderr_path.read_text(errors="replace")
        failure = Failure(status, stderr, runtime, marker.exists())
        try:
            check_clean(failure, args)
        except TestFailure:
            harness.log("oriel %s; its stderr:\n%s" % (" ".join(args), stderr[-4000:]))
            raise
        return failure
    finally:
        for pid in _session_pids(runtime):
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        shutil.rmtree(tmp, ignore_errors=True)


def check_clean(failure, args):
    what = "oriel %s" % " ".join(args)
    expect(failure.status > 0, "%s: exit status %d, wanted a failure status" % (
        what, failure.status))
    reports = [l for l in failure.stderr.splitlines()
               if re.search(r"ERROR: \w+Sanitizer|runtime error: ", l)]
    expect(not reports, "%s: sanitizer: %s" % (what, reports[:3]))
    expect(LINE.match(failure.last_line),
           "%s: the last stderr line is %r, not 'oriel: WHAT FAILED; WHAT TO DO'" % (
               what, failure.last_line))

    def no_processes():
        left = _session_pids(failure.runtime_dir)
        if left:
            raise NotYet(", ".join("%d (%s)" % (p, " ".join(
                harness.proc_cmdline(p) or [])) for p in left))
        return True
    harness.wait_for(no_processes, 5, "%s to leave no process behind" % what)
    left = sorted(os.listdir(failure.runtime_dir))
    expect(not left, "%s left files in its runtime dir: %r" % (what, left))
    expect(not failure.command_ran, "%s ran the session command" % what)


def expect_message(failure, *parts):
    for part in parts:
        expect(part in failure.last_line, "the last stderr line %r does not say %r" % (
            failure.last_line, part))
