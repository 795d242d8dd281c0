#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A session that does not answer holds up nobody else:

- alice has a session; as alice (runuser), her hand-over socket is
  replaced by a listener that never accepts, with its backlog full;
- alice's next login fails with "your session does not answer", and no
  second session of hers is started behind her back;
- bob, logging in at the same time, gets his own session and sees his
  xterm, before alice's viewer would give up;
- oriel-gateway --list answers meanwhile, showing bob's session and
  alice's as not answering.
"""

import subprocess
import threading
from pathlib import Path

import gateway
import harness
from harness import TestFailure, expect, expect_eq, log

# As alice: her socket replaced by a listener that never accepts, whose
# backlog is then filled (a further connect() would block, or EAGAIN).
STALL = r"""
import os, socket, sys
path = sys.argv[1]
os.unlink(path)
listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
listener.bind(path)
listener.listen(1)
queued = []
while True:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.setblocking(False)
    try:
        s.connect(path)
    except BlockingIOError:
        break
    queued.append(s)
print("full after %d" % len(queued), flush=True)
sys.stdin.read()
"""

ALICE_TIMEOUT = 40  # her viewer's own: bob must be in before it
BOB_TIMEOUT = 30  # connected, then his xterm shown


def main():
    host = gateway.Host(("alice", "bob"), config="[session]\ncommand = %s\n" %
                        gateway.XTERM_COMMAND)
    stall = None
    try:
        front = gateway.Front(host)
        first = front.viewer("alice", name="alice")
        first.wait_connected(timeout=30)
        first.wait_framebuffer(gateway.xterm_box, timeout=30, what="alice's xterm")
        first.send("quit")
        first.wait(20)
        rows = host.sessions()
        expect_eq([r["user"] for r in rows], [host.users["alice"]], "alice's one session")
        row = rows[0]
        socket_path = Path(row["dir"]) / "handover"
        expect(socket_path.is_socket(), "alice's hand-over socket at %s" % socket_path)

        stall = subprocess.Popen(["runuser", "-u", host.users["alice"], "--", "python3", "-c",
                                  STALL, str(socket_path)], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
        line = stall.stdout.readline()
        expect(line.startswith("full after"), "alice's listener: %r" % line)
        log("alice's hand-over socket never accepts; its backlog is %s" % line.split()[-1])

        result = {}
        alice = threading.Thread(target=lambda: result.update(
            alice=front.login("alice", timeout=ALICE_TIMEOUT)))
        alice.start()
        bob = front.viewer("bob", name="bob")

        # --list answers while both logins are under way.
        listed = gateway.run([gateway.gateway_exe(), "--runtime-dir", str(host.runtime_dir),
                              "--list"], timeout=15).stdout
        log("--list during the logins:\n" + listed)

        bob.wait_connected(timeout=BOB_TIMEOUT)
        box = bob.wait_framebuffer(gateway.xterm_box, timeout=BOB_TIMEOUT, what="his xterm")
        log("bob got in and sees his xterm at %r" % (box,))

        alice.join(harness.T(ALICE_TIMEOUT + 30))
        expect(not alice.is_alive(), "alice's login did not end")
        rc, out, _ = result["alice"]
        expect(rc != 0 and "your session does not answer" in out,
               "alice's login is refused, saying why: %d\n%s" % (rc, out[-1500:]))
        log("alice was told her session does not answer")

        rows = {r["user"]: r for r in host.sessions()}
        expect_eq(sorted(rows), sorted([host.users["alice"], host.users["bob"]]),
                  "one session each in --list")
        expect_eq(rows[host.users["alice"]]["clients"], "no-answer",
                  "alice's session in --list")
        expect(rows[host.users["bob"]]["pid"] is not None and
               gateway._uid(rows[host.users["bob"]]["pid"]) == host.uid("bob"),
               "bob's oriel runs as bob: %r" % rows[host.users["bob"]])
        expect("no-answer" in listed and host.users["alice"] in listed,
               "--list during the logins shows alice's session as not answering")
        expect('"%s" logged in from' % host.users["bob"] in front.log(),
               "the gateway logs bob's login")
        expect("%s's session at %s does not answer" % (host.users["alice"], socket_path)
               in front.log(), "the gateway logs why alice's login failed")
        bob.send("quit")
        bob.wait(20)
    except subprocess.TimeoutExpired as e:
        raise TestFailure("%s did not answer in time" % e.cmd[-1])
    finally:
        if stall is not None:
            stall.kill()
            stall.wait()
        host.close()


if __name__ == "__main__":
    harness.run(main)
