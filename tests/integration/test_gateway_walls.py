#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a user cannot do with the gateway:

- bob cannot hand a connection to alice's session: connecting to her
  hand-over socket as bob fails with EACCES (her runtime dir is hers,
  0700), while his own session's socket takes his connection;
- oriel-gateway run by a user who is not root refuses to serve (and to
  list, start or end sessions): it exits 1, says it runs as root, and
  nothing listens on the port it was given.
"""

import os
import socket
import subprocess

import gateway
import harness
import vnc
from harness import expect, expect_eq, log


def as_user(host, short, argv):
    uid = host.uid(short)
    gid = os.getgrouplist(host.users[short], 0)[0]
    return subprocess.run(argv, capture_output=True, text=True, timeout=harness.T(30),
                          preexec_fn=lambda: (os.setgroups([]), os.setgid(gid),
                                              os.setuid(uid)))


def connect_as(host, short, path):
    code = ("import socket\n"
            "s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)\n"
            "try:\n    s.connect(%r); print('connected')\n"
            "except PermissionError: print('EACCES')\n"
            "except OSError as e: print(e.errno)\n") % path
    return as_user(host, short, ["python3", "-c", code]).stdout.strip()


def main():
    host = gateway.Host(("alice", "bob"))
    try:
        alice = host.start("alice")
        bob = host.start("bob")
        alice_socket = host.session_dir(alice) + "/handover"
        bob_socket = host.session_dir(bob) + "/handover"
        expect_eq(connect_as(host, "bob", alice_socket), "EACCES",
                  "bob connecting to alice's hand-over socket")
        expect_eq(connect_as(host, "bob", bob_socket), "connected",
                  "bob connecting to his own session's hand-over socket")
        expect_eq(connect_as(host, "alice", bob_socket), "EACCES",
                  "alice connecting to bob's hand-over socket")

        port = vnc.free_port()
        res = as_user(host, "bob", [gateway.gateway_exe()] + host.args(
            "--vnc", "127.0.0.1:%d" % port))
        log("as bob: exit %d: %s" % (res.returncode, res.stderr.strip()))
        expect_eq(res.returncode, 1, "oriel-gateway's exit status as bob")
        expect("runs as root" in res.stderr, "oriel-gateway says why: %r" % res.stderr)
        s = socket.socket()
        try:
            expect(s.connect_ex(("127.0.0.1", port)) != 0,
                   "something listens on %d after bob's gateway refused" % port)
        finally:
            s.close()
        for action in (["--list"], ["--start", host.users["bob"]],
                       ["--terminate", host.users["alice"]]):
            res = as_user(host, "bob", [gateway.gateway_exe()] + host.args(*action))
            expect_eq(res.returncode, 1, "oriel-gateway %s as bob" % action[0])
        expect(harness.pid_alive(alice), "alice's session survived bob's --terminate")
        expect_eq(sorted(r["pid"] for r in host.sessions()), sorted([alice, bob]),
                  "--list: both sessions, no other")
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
