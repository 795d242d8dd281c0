#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""oriel brings its own session bus when there is none.

harness.Session always provides a bus, so this test runs oriel itself, in
a private XDG_RUNTIME_DIR and with DBUS_SESSION_BUS_ADDRESS unset:

- With `--dbus spawn` (and again with the default, `--dbus auto`) the
  session command, started by oriel, records the DBUS_SESSION_BUS_ADDRESS
  it was given and runs `orielctl outputs --json` once.  Then:
  (a) a dbus-daemon runs whose parent is oriel, listening in our runtime
      dir; it holds the socket that address names;
  (b) the session command got that address;
  (c) orielctl reached org.oriel.Compositor on it right away: it exited 0
      and printed valid JSON listing our one 1024x768 output (and the test
      reaches it there too);
  (d) after SIGTERM oriel exits 0, and that dbus-daemon is gone, as is
      every other process of the session.
- With `--dbus session` and no DBUS_SESSION_BUS_ADDRESS, oriel exits with a
  non-zero status and a message that names the missing variable, without
  running the session command or starting a dbus-daemon.
"""
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import harness
from harness import NotYet, T, TestFailure, expect, expect_eq

OUTPUT = (1024, 768)

# $0: directory for the results, $1: orielctl.  The status file is moved in
# last: once it exists, the address and outputs files are complete.
COMMAND = r'''
echo "$DBUS_SESSION_BUS_ADDRESS" > "$0/address.tmp" && mv "$0/address.tmp" "$0/address"
"$1" outputs --json > "$0/outputs" 2> "$0/outputs.err"
echo $? > "$0/status.tmp" && mv "$0/status.tmp" "$0/status"
exec sleep 1000000
'''


class BareOriel:
    """oriel started directly, without harness.Session's bus."""

    def __init__(self, name, args):
        self.tmp = Path(tempfile.mkdtemp(prefix="oriel-%s-%s-" % (
            Path(sys.argv[0]).stem, name)))
        self.runtime_dir = self.tmp / "runtime"
        self.results = self.tmp / "results"
        home = self.tmp / "home"
        for d in (self.runtime_dir, self.results, home / ".config"):
            d.mkdir(parents=True)
        os.chmod(self.runtime_dir, 0o700)
        self.log_path = self.tmp / "oriel.log"
        env = dict(os.environ)
        for var in ("WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY",
                    "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS",
                    "XAUTHORITY", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP"):
            env.pop(var, None)
        env.update({
            "XDG_RUNTIME_DIR": str(self.runtime_dir),
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "WLR_BACKENDS": "headless",
            "WLR_RENDERER": "pixman",
            "WLR_LIBINPUT_NO_DEVICES": "1",
            "LC_ALL": "C.UTF-8",
        })
        self.env = env
        self.orielctl = harness.exe("ORIELCTL")
        self.argv = [harness.exe("ORIEL"), "--backend", "headless",
                     "--renderer", "pixman", "--output", "%dx%d" % OUTPUT,
                     "--xwayland", "off", "-d"] + list(args) + [
                     "--", "sh", "-c", COMMAND, str(self.results), self.orielctl]
        self.proc = None
        self.status = None

    def __enter__(self):
        with open(self.log_path, "wb") as logf:
            self.proc = subprocess.Popen(
                self.argv, env=self.env, stdin=subprocess.DEVNULL, stdout=logf,
                stderr=subprocess.STDOUT, start_new_session=True, cwd=str(self.tmp))
        return self

    def __exit__(self, exc_type, exc, tb):
        if self.proc.poll() is None:
            harness._kill_group(self.proc, signal.SIGKILL)
            self.proc.wait()
        # The session command and a dbus-daemon that oriel left behind
        # (dbus-daemon runs in its own session, outside oriel's group).
        for pid in self.session_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        failed = exc_type is not None and not issubclass(exc_type, harness.Skip)
        reports = self.sanitizer_reports()
        if failed or reports:
            print("=" * 30 + " oriel log (%s) " % self.log_path + "=" * 30,
                  file=sys.stderr)
            print("command: %s" % " ".join(shlex.quote(a) for a in self.argv),
                  file=sys.stderr)
            print("exit status: %s" % harness._status(self.proc.returncode),
                  file=sys.stderr)
            print(harness._tail(self.log_path, 300), file=sys.stderr, flush=True)
        if os.environ.get("ORIEL_TEST_KEEP", "") not in ("", "0"):
            harness.log("kept", self.tmp)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)
        if reports and not failed:
            raise TestFailure("; ".join(reports))
        return False

    def log_text(self):
        return self.log_path.read_text(errors="replace")

    def sanitizer_reports(self):
        found = []
        for line in self.log_text().splitlines():
            if (re.search(r"ERROR: (Address|Leak|Memory|Thread)Sanitizer", line) or
                    re.search(r"^\S+:\d+:\d+: runtime error: ", line)):
                found.append("sanitizer: " + line.strip())
        return found[:5]

    def alive(self):
        if self.status is None and self.proc.poll() is not None:
            raise TestFailure("oriel exited unexpectedly with status %s" %
                              harness._status(self.proc.returncode))

    def wait_for(self, predicate, timeout=harness.DEFAULT_TIMEOUT, what="condition"):
        return harness.wait_for(predicate, timeout, what, alive=self.alive)

    def wait_exit(self, timeout):
        try:
            self.status = self.proc.wait(T(timeout))
        except subprocess.TimeoutExpired:
            raise TestFailure("oriel did not exit within %.1fs" % T(timeout))
        return self.status

    def session_pids(self):
        """Live processes carrying our XDG_RUNTIME_DIR (oriel's children)."""
        pids = []
        for pid in harness.all_pids():
            if pid == os.getpid():
                continue
            env = harness.proc_environ(pid)
            if (env and env.get("XDG_RUNTIME_DIR") == str(self.runtime_dir)
                    and harness.pid_alive(pid)):
                pids.append(pid)
        return pids

    def dbus_daemons(self):
        """pids of dbus-daemons listening in our runtime dir."""
        want = "--address=unix:dir=%s" % self.runtime_dir
        return [pid for pid in self.session_pids()
                if harness.proc_comm(pid) == "dbus-daemon"
                and want in (harness.proc_cmdline(pid) or [])]


def ppid(pid):
    with open("/proc/%d/stat" % pid) as f:
        stat = f.read()
    return int(stat[stat.rindex(")") + 2:].split()[1])


def check_outputs_json(text, who):
    try:
        outs = json.loads(text)
    except ValueError as e:
        raise TestFailure("%s printed invalid JSON (%s): %r" % (who, e, text))
    expect(isinstance(outs, list) and len(outs) == 1,
           "%s: expected one output, got %r" % (who, outs))
    expect_eq((outs[0]["width"], outs[0]["height"]), OUTPUT,
              "%s: size of the output" % who)


def spawned_bus(mode):
    with BareOriel(mode, ["--dbus", mode]) as o:
        status_file = o.results / "status"

        def command_done():
            if not status_file.exists():
                raise NotYet("the session command has not written %s" % status_file)
            return True
        o.wait_for(command_done, what="the session command to run orielctl "
                   "(--dbus %s)" % mode)

        # (b) the session command got an address in our runtime dir.
        address = (o.results / "address").read_text().strip()
        m = re.match(r"unix:path=([^,]+)", address)
        expect(m, "--dbus %s: the session command got DBUS_SESSION_BUS_ADDRESS=%r, "
               "not a unix:path= address" % (mode, address))
        socket_path = Path(m.group(1))
        expect_eq(socket_path.parent, o.runtime_dir,
                  "directory of the bus socket %s" % socket_path)

        # (a) oriel's own dbus-daemon listens there.
        daemons = o.dbus_daemons()
        expect(len(daemons) == 1, "--dbus %s: expected one dbus-daemon in %s, found "
               "%r" % (mode, o.runtime_dir, daemons))
        daemon = daemons[0]
        expect_eq(ppid(daemon), o.proc.pid, "parent of dbus-daemon %d" % daemon)
        inodes = harness.unix_sockets().get(str(socket_path), set())
        expect(inodes, "no unix socket listens at %s" % socket_path)
        expect(daemon in harness.socket_owners(inodes),
               "the socket %s is not dbus-daemon %d's" % (socket_path, daemon))
        expect("Started a session bus at %s" % address in o.log_text(),
               "oriel did not log the bus it started at %s" % address)

        # (c) orielctl reached org.oriel.Compositor there, at once.
        status = (o.results / "status").read_text().strip()
        err = (o.results / "outputs.err").read_text().strip()
        expect_eq(status, "0", "--dbus %s: exit status of orielctl in the session "
                  "command (stderr: %s)" % (mode, err))
        check_outputs_json((o.results / "outputs").read_text(),
                           "orielctl outputs --json in the session command")
        env = dict(o.env, DBUS_SESSION_BUS_ADDRESS=address)
        res = subprocess.run([o.orielctl, "outputs", "--json"], env=env,
                             capture_output=True, text=True, timeout=T(15),
                             stdin=subprocess.DEVNULL)
        expect_eq(res.returncode, 0, "exit status of orielctl on %s (stderr: %s)"
                  % (address, res.stderr.strip()))
        check_outputs_json(res.stdout, "orielctl outputs --json from the test")

        # (d) SIGTERM: exit 0, the bus and the session command are gone.
        session = set(o.session_pids())
        o.proc.send_signal(signal.SIGTERM)
        expect_eq(o.wait_exit(15), 0, "--dbus %s: oriel's exit status after SIGTERM"
                  % mode)

        def all_gone():
            left = [p for p in session | set(o.session_pids()) if harness.pid_alive(p)]
            if left:
                raise NotYet("still running: %s" % ", ".join(
                    "%d (%s)" % (p, harness.proc_comm(p)) for p in sorted(left)))
            return True
        harness.wait_for(all_gone, 10, "dbus-daemon %d and the session command to "
                         "be gone after oriel exited" % daemon)


def session_without_bus():
    with BareOriel("session", ["--dbus", "session"]) as o:
        status = o.wait_exit(30)
        expect(status not in (0, None), "--dbus session without "
               "DBUS_SESSION_BUS_ADDRESS: oriel exited with %s" % harness._status(status))
        log = o.log_text()
        expect("DBUS_SESSION_BUS_ADDRESS is not set" in log and "--dbus session" in log,
               "--dbus session without a bus: no message naming --dbus session and "
               "DBUS_SESSION_BUS_ADDRESS in oriel's output:\n%s" % log)
        expect(not (o.results / "address").exists(),
               "--dbus session without a bus still ran the session command")
        expect_eq(o.dbus_daemons(), [], "dbus-daemons started by --dbus session")
        left = [e for e in os.listdir(o.runtime_dir)
                if re.fullmatch(r"wayland-\d+(\.lock)?", e)]
        expect(not left, "--dbus session without a bus left %r" % left)


def main():
    for mode in ("spawn", "auto"):
        spawned_bus(mode)
    session_without_bus()


if __name__ == "__main__":
    harness.run(main)
