#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What another user leaves in /tmp does not stop a session from starting:
each session the gateway hosts has a /tmp of its own.

In a mount and network namespace of the test's own (its /tmp and abstract
sockets are the test's, as if the host's), mallory, a user of the host:
- writes /tmp/.X{N}-lock with no pid in it, /tmp/server-N.xkm (the
  keymap Xwayland compiles to) and /tmp/.X11-unix/X{N}, for every N
  from 10 to 2000;
- binds the abstract X sockets @/tmp/.X11-unix/X40 to X1100, past the
  1000 numbers the display search used to give up after, and X0 to X32,
  among which wlroots takes a display for a moment while Xwayland starts.
Then alice logs in through the gateway's VNC port (sessions' displays
from :40): her session starts and her viewer shows its xterm, on :1101,
one of mallory's numbers; in her session's /tmp that display's lock
holds her oriel's pid, while the test's /tmp still has mallory's files.
A process of alice's outside her session reaches her display through
the abstract socket (xdpyinfo), and mallory's is refused.
"""

import os
import re
import resource
import subprocess

import gateway
import harness
from harness import NotYet, expect, expect_eq, log, tool

SQUATTED = range(10, 2001)
BOUND = range(40, 1101)
# Not a python under /root, which other users may not run.
SYSTEM_PYTHON = "/usr/bin/python3"

SQUATTER = r"""
import socket, sys
for n in range(%d, %d):
    for path in ("/tmp/.X%%d-lock" %% n, "/tmp/server-%%d.xkm" %% n,
                 "/tmp/.X11-unix/X%%d" %% n):
        with open(path, "w") as f:
            f.write("squatted\n")
held = []
for n in list(range(0, 33)) + list(range(%d, %d)):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind("\0/tmp/.X11-unix/X%%d" %% n)
    s.listen(1)
    held.append(s)
print("ready", flush=True)
sys.stdin.read()
""" % (SQUATTED.start, SQUATTED.stop, BOUND.start, BOUND.stop)


def as_user(host, short):
    uid = host.uid(short)
    gid = os.getgrouplist(host.users[short], 0)[0]

    def become():
        resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    return become


def squatted_paths():
    for n in SQUATTED:
        yield "/tmp/.X%d-lock" % n
        yield "/tmp/server-%d.xkm" % n
        yield "/tmp/.X11-unix/X%d" % n


def her_proc(host, name):
    pids = gateway.children_named(host.session_pids("alice"), name)
    if not pids:
        raise NotYet("alice has no %s yet" % name)
    return pids[0]


def xdpyinfo(host, short, display):
    return subprocess.run([tool("runuser"), "-u", host.users[short], "--",
                           tool("xdpyinfo"), "-display", display],
                          capture_output=True, text=True, timeout=harness.T(30),
                          env={"PATH": "/usr/bin:/bin"})


def inside():
    host = gateway.Host(("alice", "mallory"), config=(
        "[session]\ncommand = %s\nx-display = %d\n" % (gateway.XTERM_COMMAND, BOUND.start)))
    squatter = None
    mallory = host.uid("mallory")
    try:
        squatter = subprocess.Popen([SYSTEM_PYTHON, "-c", SQUATTER], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, text=True,
                                    preexec_fn=as_user(host, "mallory"))
        expect_eq(squatter.stdout.readline().strip(), "ready", "mallory's squatter")
        owners = {os.stat(p).st_uid for p in squatted_paths()}
        expect_eq(owners, {mallory}, "the owners of the squatted files")

        front = gateway.Front(host)
        v = front.viewer("alice")
        v.wait_connected()
        gateway.wait_her_xterm(v)
        row = host.her_session("alice")
        oriel = row["pid"]

        xterm = harness.wait_for(lambda: her_proc(host, "xterm"), what="her xterm")
        display = harness.proc_environ(xterm).get("DISPLAY", "")
        log("her xterm runs on %s" % display)
        expect(re.fullmatch(r":\d+", display), "her xterm's DISPLAY=%r" % display)
        number = int(display[1:])
        expect_eq(number, BOUND.stop, "her display: the first number nobody holds")
        expect(number in SQUATTED, ":%d is not one of mallory's numbers" % number)
        xwayland = harness.wait_for(lambda: her_proc(host, "Xwayland"), what="her Xwayland")
        expect_eq(harness.proc_cmdline(xwayland)[1], display, "her Xwayland's display")

        her_tmp = "/proc/%d/root/tmp" % oriel
        expect(os.stat(her_tmp).st_dev != os.stat("/tmp").st_dev,
               "her session's /tmp is the test's /tmp")
        with open("%s/.X%d-lock" % (her_tmp, number)) as f:
            expect_eq(int(f.read()), oriel, "her session's lock of %s holds her oriel" % display)
        for path in ("/tmp/.X%d-lock" % number, "/tmp/server-%d.xkm" % number):
            st = os.stat(path)
            with open(path) as f:
                expect_eq((st.st_uid, f.read()), (mallory, "squatted\n"),
                          "mallory's %s, outside her session" % path)

        mine = xdpyinfo(host, "alice", display)
        expect(mine.returncode == 0 and ("name of display:    %s" % display) in mine.stdout,
               "alice's xdpyinfo outside her session: exit %d: %s" % (
                   mine.returncode, (mine.stdout + mine.stderr)[-400:]))
        theirs = xdpyinfo(host, "mallory", display)
        expect(theirs.returncode != 0 and "unable to open display" in theirs.stderr,
               "mallory's xdpyinfo on her display: exit %d: %s" % (
                   theirs.returncode, (theirs.stdout + theirs.stderr)[-400:]))
        v.send("quit")
        v.wait(20)
    finally:
        if squatter:
            squatter.kill()
            squatter.wait()
        for path in squatted_paths():
            try:
                if os.lstat(path).st_uid == mallory:
                    os.unlink(path)
            except FileNotFoundError:
                pass
        host.close()


if __name__ == "__main__":
    harness.run_in_namespaces(inside)
