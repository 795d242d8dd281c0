#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sessions of two users, started as a login does (oriel-gateway --start):

- alice's oriel, Xwayland and xterm run with her uid and her HOME, in a
  runtime dir of hers (0700) under the gateway's; her X display is one of
  :10 and up (--x-display, past the displays of the host's own X
  servers), which her xterm has in DISPLAY and her Xwayland serves;
- bob gets a different session, and cannot reach alice's runtime dir, her
  hand-over socket or her Wayland socket (EACCES);
- alice's next login finds the same oriel (the share policy), although the
  gateway that started it is gone;
- --list shows both, with their pids and memory;
- a session whose command exits is cleaned up: processes, runtime dir,
  socket; --terminate ends a session and waits for its cleanup, and the
  other user's session goes on.
"""

import os
import re
import socket
import stat
import subprocess
from pathlib import Path

import gateway
import harness
from harness import NotYet, expect, expect_eq, log


def as_user(host, short, code):
    """Runs python code as the user; its stdout."""
    uid = host.uid(short)
    gid = os.getgrouplist(host.users[short], 0)[0]
    return subprocess.run(["python3", "-c", code], capture_output=True, text=True,
                          preexec_fn=lambda: (os.setgid(gid), os.setuid(uid)),
                          timeout=harness.T(30)).stdout.strip()


def reach(path):
    return ("import socket, sys\n"
            "s = socket.socket(socket.AF_UNIX, %s)\n"
            "try:\n    s.connect(%r); print('connected')\n"
            "except PermissionError: print('EACCES')\n"
            "except OSError as e: print(e.errno)\n") % (
                "socket.SOCK_SEQPACKET" if path.endswith("handover") else
                "socket.SOCK_STREAM", path)


def session_procs(host, short, name):
    pids = gateway.children_named(host.session_pids(short), name)
    if not pids:
        raise NotYet("%s has no %s yet" % (short, name))
    return pids


def x_display(host, short):
    """The display number in her xterm's DISPLAY, which her Xwayland serves."""
    xterm = harness.wait_for(lambda: session_procs(host, short, "xterm"),
                             what="%s's xterm" % short)[0]
    display = harness.proc_environ(xterm).get("DISPLAY", "")
    expect(re.fullmatch(r":\d+", display), "%s's xterm has DISPLAY=%r" % (short, display))
    xwayland = session_procs(host, short, "Xwayland")[0]
    expect_eq(harness.proc_cmdline(xwayland)[1], display, "%s's Xwayland's display" % short)
    return int(display[1:])


def main():
    host = gateway.Host(("alice", "bob"))
    try:
        alice = host.start("alice")
        alice_dir = host.session_dir(alice)
        log("alice's oriel is pid %d in %s" % (alice, alice_dir))
        st = os.lstat(alice_dir)
        expect(stat.S_ISDIR(st.st_mode) and st.st_uid == host.uid("alice") and
               stat.S_IMODE(st.st_mode) == 0o700, "alice's runtime dir is hers and 0700")

        for name in ("oriel", "Xwayland", "xterm"):
            pids = harness.wait_for(lambda: session_procs(host, "alice", name),
                                    what="alice's %s" % name)
            for pid in pids:
                expect_eq(gateway.proc_uid(pid), host.uid("alice"), "%s's uid" % name)
                env = harness.proc_environ(pid)
                expect_eq(env.get("HOME"), host.home("alice"), "%s's HOME" % name)
                expect_eq(env.get("XDG_RUNTIME_DIR"), alice_dir,
                          "%s's XDG_RUNTIME_DIR" % name)

        alice_display = x_display(host, "alice")
        expect(alice_display >= 10, "alice's X display :%d is below :10" % alice_display)

        bob = host.start("bob")
        bob_dir = host.session_dir(bob)
        expect(bob != alice and bob_dir != alice_dir, "bob gets a session of his own")
        expect_eq(gateway.proc_uid(bob), host.uid("bob"), "bob's oriel's uid")
        bob_display = x_display(host, "bob")
        expect(bob_display >= 10 and bob_display != alice_display,
               "bob's X display :%d (alice's :%d)" % (bob_display, alice_display))

        wayland = sorted(p.name for p in Path(alice_dir).iterdir()
                         if p.name.startswith("wayland-") and not p.name.endswith(".lock"))
        expect(wayland, "alice's runtime dir has a Wayland socket")
        for path in (alice_dir + "/handover", alice_dir + "/" + wayland[0]):
            expect_eq(as_user(host, "bob", reach(path)), "EACCES",
                      "bob connecting to %s" % path)
        expect_eq(as_user(host, "bob", "import os\ntry:\n os.listdir(%r); print('listed')\n"
                          "except PermissionError: print('EACCES')" % alice_dir),
                  "EACCES", "bob listing alice's runtime dir")

        # The gateway that started her session has exited: the next finds it.
        expect_eq(host.start("alice"), alice, "alice's second login's oriel")

        rows = {r["user"]: r for r in host.sessions()}
        expect_eq(sorted(rows), sorted(host.users.values()), "--list's users")
        expect_eq(rows[host.users["alice"]]["pid"], alice, "--list's pid of alice")
        expect(rows[host.users["alice"]]["pss_mib"] and
               rows[host.users["alice"]]["pss_mib"] > 1, "--list shows alice's memory")

        # A second session of bob's whose command ends: all of it goes.
        host.config_path().write_text("[session]\ncommand = exec sleep 100000\n"
                                      "reconnect = new\n")
        short_lived = host.start("bob")
        short_dir = host.session_dir(short_lived)
        sleeper = harness.wait_for(lambda: [p for p in session_procs(host, "bob", "sleep")
                                            if (harness.proc_environ(p) or {}).get(
                                                "XDG_RUNTIME_DIR") == short_dir],
                                   what="the session command")
        os.kill(sleeper[0], 15)
        harness.wait_for(lambda: gateway.gone(short_dir),
                         what="the ended session's runtime dir to go")
        left = [p for p in host.session_pids("bob")
                if (harness.proc_environ(p) or {}).get("XDG_RUNTIME_DIR") == short_dir]
        expect_eq(left, [], "processes of the ended session")
        expect(harness.pid_alive(bob), "bob's first session goes on")

        result = host.gateway("--terminate", host.users["alice"])
        expect(not os.path.exists(alice_dir), "--terminate waited for the cleanup")
        expect_eq(host.session_pids("alice"), [], "alice's processes after --terminate")
        expect(harness.pid_alive(bob), "bob's session goes on: " + result.stdout)
        expect_eq([r["user"] for r in host.sessions()], [host.users["bob"]],
                  "--list after --terminate")
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
