#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The gateway parses nothing from the network as root:

- while a VNC client (it sent its RFB version) and an RDP client (it sent
  its X.224 Connection Request, and sits before its TLS handshake) wait
  before their logins, every process and thread that holds their
  accepted sockets (found by the sockets' inodes in /proc/net/tcp) runs
  with no uid 0 (real, effective, saved, file system), CapEff, CapPrm and
  CapBnd 0, NoNewPrivs 1 and Seccomp 2 (a filter); the root broker
  (oriel-gateway's own pid) holds neither;
- a worker made (by the build's test hook) to open /etc/shadow when a
  connection comes is refused (EACCES, which it logs) and goes on; alice
  then logs in and gets her session's screen;
- a worker made to execve is killed by SIGSYS; the gateway logs its
  death and starts another, and alice's next login gets in.
"""

import glob
import os
import socket

import gateway
import harness
from harness import NotYet, expect, log

# X.224 Connection Request with an RDP Negotiation Request for TLS (MS-RDPBCGR 2.2.1.1).
X224_REQUEST_TLS = b"\x03\x00\x00\x13\x0e\xe0\x00\x00\x00\x00\x00\x01\x00\x08\x00\x01\x00\x00\x00"


def socket_inode(local_port, remote_port):
    """The inode of the accepted socket on local_port from remote_port (loopback)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            next(f)
            for line in f:
                fields = line.split()
                local, remote, inode = fields[1], fields[2], fields[9]
                if (int(local.split(":")[1], 16) == local_port and
                        int(remote.split(":")[1], 16) == remote_port and inode != "0"):
                    return inode
    raise NotYet("no socket from port %d to %d yet" % (remote_port, local_port))


def holders(inode):
    """Every (pid, tid) with a descriptor of socket inode."""
    target = "socket:[%s]" % inode
    found = set()
    for fd in glob.glob("/proc/[0-9]*/task/[0-9]*/fd/*"):
        try:
            if os.readlink(fd) == target:
                parts = fd.split("/")
                found.add((int(parts[2]), int(parts[4])))
        except OSError:
            pass
    return found


def status(pid, tid):
    fields = {}
    with open("/proc/%d/task/%d/status" % (pid, tid)) as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.split()
    return fields


def check_unprivileged(front, what, local_port, client):
    inode = front.wait_for(lambda: socket_inode(local_port, client.getsockname()[1]),
                           what="the gateway to accept the %s client" % what)
    found = front.wait_for(lambda: holders(inode) or harness.NotYet("no holder yet"),
                           what="a process holding the %s client's socket" % what)
    log("%s client's socket %s is held by %r" % (what, inode, sorted(found)))
    pids = {pid for pid, _tid in found}
    expect(front.proc.pid not in pids, "the root broker holds the %s client's socket" % what)
    expect(status(front.proc.pid, front.proc.pid)["Uid"][0] == "0",
           "the broker runs as root")
    for pid, tid in sorted(found):
        s = status(pid, tid)
        who = "%s client's holder %d/%d (%s)" % (what, pid, tid, harness.proc_comm(pid))
        expect("0" not in s["Uid"] and "0" not in s["Gid"], "%s: Uid %r Gid %r" % (
            who, s["Uid"], s["Gid"]))
        for cap in ("CapEff", "CapPrm", "CapBnd"):
            expect(int(s[cap][0], 16) == 0, "%s: %s %s" % (who, cap, s[cap][0]))
        expect(s["NoNewPrivs"] == ["1"], "%s: NoNewPrivs %r" % (who, s["NoNewPrivs"]))
        expect(s["Seccomp"] == ["2"], "%s: Seccomp %r" % (who, s["Seccomp"]))
    return pids


def sit_before_login(front):
    """A VNC and an RDP client that stop before their logins."""
    v = socket.create_connection(front.address, timeout=harness.T(10))
    expect(v.recv(12) == b"RFB 003.008\n", "the gateway's RFB greeting")
    v.sendall(b"RFB 003.008\n")
    r = socket.create_connection(("127.0.0.1", front.rdp_port), timeout=harness.T(10))
    r.sendall(X224_REQUEST_TLS)
    confirm = r.recv(19)
    expect(confirm[:2] == b"\x03\x00" and len(confirm) == 19,
           "the gateway's Connection Confirm: %r" % confirm)
    return v, r


def logs_in(front):
    rc, out, image = front.login("alice")
    expect(rc == 0 and image is not None, "alice's login: exit %d: %s" % (rc, out[-2000:]))
    expect((image.width, image.height) == (1920, 1080),
           "her session's screen: %dx%d" % (image.width, image.height))


def main():
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\n" %
                        gateway.XTERM_COMMAND)
    try:
        front = gateway.Front(host, rdp=True)
        v, r = sit_before_login(front)
        vnc_holders = check_unprivileged(front, "VNC", front.port, v)
        rdp_holders = check_unprivileged(front, "RDP", front.rdp_port, r)
        log("held by the worker(s) %r and %r" % (vnc_holders, rdp_holders))
        v.close()
        r.close()
        front.stop()

        front = gateway.Front(host, env={"ORIEL_GATEWAY_TEST_WORKER": "open-shadow"})
        socket.create_connection(front.address, timeout=harness.T(10)).close()
        front.wait_for(lambda: "test hook: open /etc/shadow: Permission denied" in
                       front.log() or harness.NotYet("not tried yet"),
                       what="the worker to be refused /etc/shadow")
        logs_in(front)
        expect("network worker" not in front.log(), "the worker ended:\n%s" % front.log())
        front.stop()

        front = gateway.Front(host, env={"ORIEL_GATEWAY_TEST_WORKER": "execve"})
        socket.create_connection(front.address, timeout=harness.T(10)).close()
        front.wait_for(lambda: "was killed by SIGSYS; starting another" in front.log() or
                       harness.NotYet("not yet"), what="the worker to be killed by SIGSYS")
        log("".join(l for l in front.log().splitlines(True) if "worker" in l or "hook" in l))
        expect("test hook: execve /bin/sh" in front.log(), "the hook ran")
        expect("test hook: execve /bin/sh:" not in front.log(), "execve returned")
        logs_in(front)
        front.stop()
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
