#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The systemd units' ExecStart lines run and serve, with what systemd
would give them (no systemd here: the test reads the unit and does it):

- oriel-gateway.service (build/gateway/): its ExecStart, with the
  installed oriel-gateway swapped for the built one, in systemd's clean
  environment plus the unit's Environment= and its StateDirectory=, reads
  /etc/oriel/gateway.ini (written by the test, and put back after) and
  serves: alice logs in with the test viewer and sees her xterm. SIGTERM
  (KillMode=process) stops the gateway alone: her session goes on;
- oriel@.service: its ExecStart for alice (%i), as her (User=%i), in
  her home, with the unit's XDG_RUNTIME_DIR made as RuntimeDirectory=
  would, and ORIEL_VNC from /etc/oriel/users/%i.conf's line: her
  ~/.config/oriel/session runs, and a viewer on that port, run as her
  (without accounts her session serves only her), sees its xterm.
"""

import os
import re
import shlex
import shutil
import signal
import subprocess
from pathlib import Path

import gateway
import harness
import peer_uid
import vnc
from harness import NotYet, expect, expect_eq, log

SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def read_unit(path):
    """The [Service] section: {key: [values]}."""
    service, section = {}, None
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]" and "=" in line:
            key, value = line.split("=", 1)
            service.setdefault(key.strip(), []).append(value.strip())
    return service


def specifiers(text, instance):
    return re.sub(r"%(.)", lambda m: {"i": instance, "I": instance, "%": "%"}.get(
        m.group(1), m.group(0)), text)


def environment(service, instance, env_files=()):
    env = {"PATH": SYSTEMD_PATH, "LANG": "C.UTF-8"}
    for value in service.get("Environment", []):
        for assignment in shlex.split(specifiers(value, instance)):
            k, v = assignment.split("=", 1)
            env[k] = v
    for path in env_files:
        for line in Path(path).read_text().splitlines():
            if "=" in line and not line.startswith("#"):
                k, v = line.split("=", 1)
                env[k.strip()] = v.strip()
    return env


def exec_start(service, instance, env, swap):
    """ExecStart as argv: specifiers, ${VAR} and $VAR from env, and the
    installed programs swapped for the built ones (swap: {path: path})."""
    (line,) = service["ExecStart"]
    line = specifiers(line.lstrip("-@+!"), instance)
    argv = []
    for word in shlex.split(line):
        word = re.sub(r"\$\{(\w+)\}", lambda m: env.get(m.group(1), ""), word)
        if re.fullmatch(r"\$(\w+)", word):
            word = env.get(word[1:], "")
        argv.append(swap.get(word, word))
    return argv


def built(name):
    return harness.exe("ORIEL") if name == "oriel" else gateway.gateway_exe()


def main():
    build = Path(gateway.gateway_exe()).parent
    gw_unit = read_unit(build / "oriel-gateway.service")
    user_unit = read_unit(build / "oriel@.service")
    host = gateway.Host(("alice",))
    made = []
    saved = {}
    try:
        for path in ("/etc/oriel/gateway.ini", "/etc/oriel/users"):
            if os.path.lexists(path):
                saved[path] = host.base / ("saved-" + Path(path).name)
                shutil.move(path, saved[path])
        if not os.path.isdir("/etc/oriel"):
            os.makedirs("/etc/oriel")
            made.append("/etc/oriel")
        port = vnc.free_port()
        Path("/etc/oriel/gateway.ini").write_text(
            "[listen]\nvnc = 127.0.0.1:%d\n[login]\npam-service = %s\n"
            "[session]\ncommand = %s\noriel = %s\nruntime-dir = %s\n" % (
                port, host.service, gateway.XTERM_COMMAND, harness.exe("ORIEL"),
                host.runtime_dir))

        env = environment(gw_unit, "")
        for name in gw_unit.get("StateDirectory", []):
            state = Path("/var/lib") / name
            if not state.exists():
                state.mkdir(mode=0o700, parents=True)
                made.append(str(state))
            env["STATE_DIRECTORY"] = str(state)
        (installed,) = [w for w in shlex.split(gw_unit["ExecStart"][0])
                        if w.endswith("/oriel-gateway")]
        argv = exec_start(gw_unit, "", env, {installed: gateway.gateway_exe()})
        log("oriel-gateway.service runs %r with %r" % (argv, env))
        logf = open(host.base / "unit-gateway.log", "wb")
        proc = subprocess.Popen(argv, env=env, cwd="/", stdin=subprocess.DEVNULL,
                                stdout=logf, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            address = ("127.0.0.1", port)
            front = gateway.Front.__new__(gateway.Front)
            harness.Client.__init__(front, front, "oriel-gateway.service", argv, proc,
                                    host.base / "unit-gateway.log")
            front.host, front.tmp, front.clients = host, host.base, host.clients
            front._counter, front.port, front.address = host.counter, port, address
            front.env = dict(os.environ)
            front.cert = Path(env.get("XDG_STATE_HOME", "/nonexistent")) / "oriel/tls/cert.pem"
            host.fronts.append(front)
            front.wait_for(lambda: front.cert.exists() or gateway._not_yet("no cert"),
                           what="the unit's gateway to make its certificate in its "
                           "StateDirectory")
            vnc.wait_listening(front, address)
            v = front.viewer("alice")
            v.wait_connected()
            v.wait_framebuffer(gateway.xterm_box, timeout=30,
                               what="her xterm through the unit's gateway")
            v.send("quit")
            v.wait(20)
            pid = host.sessions()[0]["pid"]
            proc.send_signal(signal.SIGTERM)
            expect_eq(proc.wait(harness.T(20)), 0, "the unit's gateway's exit status on SIGTERM")
            expect(harness.pid_alive(pid), "her session ended with the gateway (KillMode=process)")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        host.gateway("--terminate", host.users["alice"])

        # oriel@.service for alice.
        name = host.users["alice"]
        uport = vnc.free_port()
        os.makedirs("/etc/oriel/users", exist_ok=True)
        conf = Path("/etc/oriel/users/%s.conf" % name)
        conf.write_text("ORIEL_VNC=127.0.0.1:%d\n" % uport)
        files = [specifiers(f.lstrip("-"), name) for f in user_unit.get("EnvironmentFile", [])]
        uenv = environment(user_unit, name, [f for f in files if os.path.exists(f)])
        expect_eq(specifiers(user_unit["User"][0], name), name, "the unit's User=")
        home = host.home("alice")
        uenv.update(HOME=home, USER=name, LOGNAME=name, SHELL="/bin/sh")
        for rd in user_unit.get("RuntimeDirectory", []):
            rd = Path("/run") / specifiers(rd, name)
            rd.mkdir(mode=0o700)
            os.chown(rd, host.uid("alice"), -1)
            made.append(str(rd))
        session = Path(home) / ".config/oriel/session"
        session.parent.mkdir(parents=True)
        session.write_text("#!/bin/sh\nexec %s\n" % gateway.XTERM_COMMAND)
        session.chmod(0o755)
        for p in (session.parent.parent, session.parent, session):
            os.chown(p, host.uid("alice"), -1)
        installed = [w for w in shlex.split(user_unit["ExecStart"][0])
                     if w.endswith("/oriel")][0]
        argv = exec_start(user_unit, name, uenv, {installed: harness.exe("ORIEL")})
        log("oriel@%s.service runs %r" % (name, argv))
        uid = host.uid("alice")
        gid = os.getgrouplist(name, 0)[0]
        # Without accounts her session serves only her: the viewer runs as alice.
        outsiders = peer_uid.Outsiders()
        viewer = outsiders.client("ORIEL_TEST_VNCVIEWER")
        with open(host.base / "unit-oriel.log", "wb") as logf:
            uproc = subprocess.Popen(argv, env=uenv, cwd=home, stdin=subprocess.DEVNULL,
                                     stdout=logf, stderr=subprocess.STDOUT,
                                     start_new_session=True,
                                     preexec_fn=lambda: (os.setgroups([]), os.setgid(gid),
                                                         os.setuid(uid)))
        try:
            address = ("127.0.0.1", uport)

            def serves():
                if uproc.poll() is not None:
                    raise harness.TestFailure("oriel@.service's command exited %s:\n%s" % (
                        uproc.returncode, (host.base / "unit-oriel.log").read_text()[-3000:]))
                path = outsiders.home(name) / ("unit-%d.ppm" % next(host.counter))
                argv = vnc.viewer_argv(address, ["snapshot", path], timeout=10)
                res = outsiders.run(name, [viewer] + argv[1:])
                if res.returncode != 0:
                    raise NotYet("viewer: %s" % res.stdout.strip().splitlines()[-1:])
                return gateway.xterm_box(vnc.read_ppm(path))
            box = harness.wait_for(serves, 40, "oriel@.service to serve her xterm on %d" % uport)
            log("oriel@%s.service serves her session; xterm at %r" % (name, box))
        finally:
            os.killpg(uproc.pid, signal.SIGTERM)
            try:
                uproc.wait(harness.T(15))
            except subprocess.TimeoutExpired:
                os.killpg(uproc.pid, signal.SIGKILL)
                uproc.wait()
            outsiders.close()
    finally:
        host.close()
        for path in ("/etc/oriel/gateway.ini",):
            if os.path.exists(path):
                os.unlink(path)
        for path in Path("/etc/oriel/users").glob("origw_*.conf") if \
                os.path.isdir("/etc/oriel/users") else []:
            path.unlink()
        for path, where in saved.items():
            if os.path.isdir("/etc/oriel/users") and path.endswith("users") and \
                    not os.listdir("/etc/oriel/users"):
                os.rmdir("/etc/oriel/users")
            shutil.move(where, path)
        if "/etc/oriel/users" not in saved and os.path.isdir("/etc/oriel/users"):
            with_files = os.listdir("/etc/oriel/users")
            if not with_files:
                os.rmdir("/etc/oriel/users")
        for path in reversed(made):
            shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    harness.run(main)
