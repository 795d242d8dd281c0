#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/demo, as the README runs it: the session comes up, and from
another shell (its env file sourced) `orielctl cast start` gives a
PipeWire node, because oriel started the session's PipeWire. Its
VNC serves the user who started it (root here), up to the ServerInit,
and refuses `nobody`, as the demo says. Ctrl-C stops it, and its
/tmp/oriel-demo.* folder and every process it started are gone."""
import json
import os
import re
import signal
import socket
import subprocess
import threading
from pathlib import Path

import harness
import peer_uid
import vnc
from harness import NotYet, T, TestFailure, expect, expect_eq, tool, wait_for


def rdp_negotiation(port):
    """An RDP client's first message (X.224 Connection Request asking for
    TLS); the server's choice of security protocol, from its Confirm."""
    neg_req = bytes([0x01, 0, 8, 0]) + (1).to_bytes(4, "little")  # PROTOCOL_SSL
    x224 = bytes([6 + len(neg_req), 0xE0, 0, 0, 0, 0, 0]) + neg_req
    tpkt = bytes([3, 0]) + (4 + len(x224)).to_bytes(2, "big") + x224
    with socket.create_connection(("127.0.0.1", port), T(5)) as s:
        s.settimeout(T(5))
        s.sendall(tpkt)
        reply = b""
        while len(reply) < 19:
            chunk = s.recv(64)
            if not chunk:
                break
            reply += chunk
    expect(len(reply) >= 19 and reply[0] == 3 and reply[5] == 0xD0 and reply[11] == 2,
           "an X.224 Connection Confirm with a negotiation response: %r" % reply)
    return int.from_bytes(reply[15:19], "little")


def read_env(path):
    env = {}
    for line in Path(path).read_text().splitlines():
        m = re.fullmatch(r"export (\w+)=(.*)", line.strip())
        if m:
            env[m.group(1)] = m.group(2)
    return env


def processes_of(runtime):
    needle = ("XDG_RUNTIME_DIR=%s" % runtime).encode()
    found = []
    for pid in harness.all_pids():
        try:
            with open("/proc/%d/environ" % pid, "rb") as f:
                items = f.read().split(b"\0")
        except OSError:
            continue
        if needle in items and harness.pid_alive(pid):
            found.append(pid)
    return found


def main():
    tool("pipewire")
    tool("wireplumber")
    build = os.environ.get("ORIEL_BUILD_DIR") or str(harness.REPO / "build")
    env = {k: v for k, v in os.environ.items() if k not in (
        "WAYLAND_DISPLAY", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR")}
    rdp_port = vnc.free_port()
    vnc_port = vnc.free_port()
    env.update({"BUILD_DIR": build, "VNC_PORT": str(vnc_port),
                "RDP_PORT": str(rdp_port)})
    demo = subprocess.Popen([str(harness.REPO / "tools" / "demo")], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(
        l.decode(errors="replace") for l in demo.stdout), daemon=True)
    reader.start()
    state = None
    cast = None
    try:
        def ready():
            if demo.poll() is not None:
                raise TestFailure("tools/demo exited with %d:\n%s" % (
                    demo.returncode, "".join(lines)[-3000:]))
            text = "".join(lines)
            if "Press Ctrl-C" not in text:
                raise NotYet("the demo has not printed its instructions")
            return re.search(r"^\s*\. (/tmp/oriel-demo\.\w+)/env$", text, re.M)
        state = Path(wait_for(ready, 120, "tools/demo to come up").group(1))
        expect("RDP:          127.0.0.1:%d" % rdp_port in "".join(lines),
               "the demo names its RDP address")
        expect_eq(rdp_negotiation(rdp_port), 1, "the demo's RDP server picks TLS")
        expect("Who:          root only (uid 0)" in "".join(lines),
               "the demo says who may connect")
        sock, width, height, _ = vnc.rfb_handshake(("127.0.0.1", vnc_port))
        sock.close()
        expect_eq((width, height), (1280, 720), "the demo's desktop over VNC, as root")
        with peer_uid.Outsiders() as out:
            line = out.probe("nobody", "rfb", "127.0.0.1:%d" % vnc_port)
            expect(line.startswith("refused ") and "uid 65534" in line,
                   "the demo refuses nobody: %s" % line)
        session_env = dict(os.environ)
        session_env.update(read_env(state / "env"))

        orielctl = str(Path(build) / "tools" / "orielctl")
        cast = subprocess.Popen([orielctl, "cast", "start", "--output", "HEADLESS-1"],
                                env=session_env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        node = cast.stdout.readline().strip()
        expect(node.isdigit(), "orielctl cast start in the demo printed %r: %s" % (
            node, cast.stderr.read() if cast.poll() is not None else ""))

        def node_listed():
            res = subprocess.run([tool("pw-dump")], env=session_env, text=True,
                                 capture_output=True, timeout=T(10))
            ids = [o.get("id") for o in json.loads(res.stdout or "[]")
                   if o.get("type") == "PipeWire:Interface:Node"]
            if int(node) not in ids:
                raise NotYet("node %s not among %r" % (node, ids))
            return True
        wait_for(node_listed, 15, "the cast's node in the demo's PipeWire")
        cast.send_signal(signal.SIGINT)
        cast.wait(T(10))
    finally:
        if cast and cast.poll() is None:
            cast.kill()
            cast.wait()
        if demo.poll() is None:
            os.killpg(demo.pid, signal.SIGINT)  # Ctrl-C in its terminal
        try:
            demo.wait(T(30))
        except subprocess.TimeoutExpired:
            os.killpg(demo.pid, signal.SIGKILL)
            demo.wait()
            raise TestFailure("tools/demo did not stop within 30s of Ctrl-C")
        reader.join(T(5))
    harness.log("the demo said:\n" + "".join(lines)[-1500:])

    def all_gone():
        left = processes_of(state)
        if left:
            raise NotYet("still running: %s" % ", ".join("%d (%s)" % (
                p, harness.proc_comm(p)) for p in left))
        return True
    wait_for(all_gone, 10, "the demo's processes to end")
    expect(not state.exists(), "the demo left %s behind: %r" % (
        state, sorted(os.listdir(state)) if state.exists() else None))


if __name__ == "__main__":
    harness.run(main)
