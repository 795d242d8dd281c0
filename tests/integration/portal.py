# SPDX-License-Identifier: MIT
"""The portal stack for the portal and browser suites: our backend
(xdg-desktop-portal-oriel from the build tree, started with --replace so
that D-Bus activation cannot pick an installed copy) and the real frontend
(/usr/libexec/xdg-desktop-portal -r), in a Session with pipewire and
wireplumber already running (pipewire.start).

    with Session() as s:
        pipewire.start(s)
        p = portal.start(s, policy="[screencast]\\nallow-unidentified = true\\n")
        c = portal.Client(s)                   # portal_client.py
        node = c.wait_started()[0][0]
        ...
        p.set_policy("[screencast]\\n")        # re-read at each Start

The frontend reads its .portal files from XDG_DESKTOP_PORTAL_DIR (1.16
honours it), a temporary folder holding only the source tree's
oriel.portal, and picks it by UseIn=oriel against XDG_CURRENT_DESKTOP.
The backend reads its policy from ORIEL_PORTAL_POLICY.
"""
import json
import os
import shutil
import signal

import harness
from harness import NotYet, REPO, TestFailure, exe, tool, T

FRONTEND = "/usr/libexec/xdg-desktop-portal"
SYSTEM_PYTHON = "/usr/bin/python3"
CLIENT = REPO / "tests" / "integration" / "portal_client.py"

harness._EXES.setdefault("ORIEL_PORTAL", ["portal/xdg-desktop-portal-oriel"])


def name_has_owner(session, name):
    res = session.run_tool([tool("gdbus"), "call", "--session", "--dest",
                            "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                            "--method", "org.freedesktop.DBus.NameHasOwner", name],
                           check=False, timeout=10)
    return res.returncode == 0 and "true" in res.stdout


class Portal:
    def __init__(self, session, policy):
        self.s = session
        if not os.access(FRONTEND, os.X_OK):
            raise TestFailure("%s is not installed (apt-get install xdg-desktop-portal)"
                              % FRONTEND)
        self.dir = session.tmp / "portals"
        self.dir.mkdir(exist_ok=True)
        shutil.copy(REPO / "portal" / "oriel.portal", self.dir / "oriel.portal")
        self.policy_path = session.tmp / "portal.ini"
        self.set_policy(policy)
        env = {"ORIEL_PORTAL_POLICY": str(self.policy_path),
               "XDG_CURRENT_DESKTOP": "oriel"}
        self.backend = session.spawn([exe("ORIEL_PORTAL"), "--replace", "--verbose"],
                                     name="xdg-desktop-portal-oriel", env=env)

        def backend_up():
            if not self.backend.alive():
                raise TestFailure("the backend exited: %s" % self.backend.log())
            if not name_has_owner(session, "org.freedesktop.impl.portal.desktop.oriel"):
                raise NotYet("the backend has not taken its name yet")
            return True
        session.wait_for(backend_up, T(10), "the portal backend's bus name")
        env.update({"XDG_DESKTOP_PORTAL_DIR": str(self.dir),
                    "G_MESSAGES_DEBUG": "all"})
        self.frontend = session.spawn([FRONTEND, "-r", "-v"], name="xdg-desktop-portal",
                                      env=env)

        def frontend_up():
            if not self.frontend.alive():
                raise TestFailure("the frontend exited: %s" % self.frontend.log()[-3000:])
            if not name_has_owner(session, "org.freedesktop.portal.Desktop"):
                raise NotYet("no org.freedesktop.portal.Desktop yet")
            return True
        session.wait_for(frontend_up, T(15), "the portal frontend")

    def set_policy(self, text):
        tmp = self.policy_path.with_suffix(".tmp")
        tmp.write_text(text)
        os.replace(tmp, self.policy_path)

    def check_alive(self):
        for c in (self.backend, self.frontend):
            if not c.alive():
                raise TestFailure("%s exited: %s" % (c.name, c.log()[-3000:]))

    def stop_backend(self):
        """SIGTERM, and the exit status (LSan reports make it non-zero)."""
        self.backend.kill(signal.SIGTERM)
        try:
            return self.backend.proc.wait(T(10))
        except Exception:
            self.backend.kill(signal.SIGKILL)
            raise TestFailure("the backend did not exit on SIGTERM")


def start(session, policy="[screencast]\n"):
    return Portal(session, policy)


class Client:
    """portal_client.py on the session bus; parses its JSON lines."""

    def __init__(self, session, *args):
        self.s = session
        self.client = session.spawn([SYSTEM_PYTHON, str(CLIENT)] + list(args),
                                    name="portal-client")

    def steps(self):
        out = []
        for line in self.client.log().splitlines():
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
        return out

    def step(self, name):
        for st in self.steps():
            if st.get("step") == name:
                return st
        return None

    def wait_step(self, name, timeout=None):
        def got():
            st = self.step(name)
            if st is not None:
                return st
            for other in self.steps():
                if "error" in other or other.get("response", 0) != 0:
                    return other
            if not self.client.alive():
                raise TestFailure("portal client exited before %s: %s" % (
                    name, self.client.log()[-3000:]))
            raise NotYet("no %s yet: %r" % (name, self.steps()[-2:]))
        return self.s.wait_for(got, timeout or T(30), "the portal's %s" % name)

    def wait_started(self):
        st = self.wait_step("Start")
        if st.get("step") != "Start" or st.get("response") != 0:
            raise TestFailure("the portal did not start the cast: %r\n%s" % (
                st, self.client.log()[-3000:]))
        return st["streams"]

    def close(self):
        self.client.kill(signal.SIGTERM)
        self.s.wait_for(lambda: self.step("closed") or (_ for _ in ()).throw(
            NotYet("not closed yet")), T(10), "the client to close its session")


def one_shot(session, step, *args):
    """portal_client.py for one Screenshot or PickColor request: its step
    (response and results), once the client has printed it."""
    c = Client(session, *args)
    return c.wait_step(step)


class RemoteClient(Client):
    """portal_client.py --remote-desktop: Start, then Notify* calls on demand.

        rd = portal.RemoteClient(s, "--with-screencast")
        streams = rd.wait_started()
        rd.notify("NotifyKeyboardKeysym", "iu", 0x61, 1)
    """

    def __init__(self, session, *args):
        self.fifo = session.tmp / ("rd-commands-%d" % next(session._counter))
        os.mkfifo(self.fifo)
        super().__init__(session, "--remote-desktop", "--commands", str(self.fifo), *args)
        self.writer = None
        self.n = 0

    def wait_ready(self):
        streams = self.wait_started()
        st = self.wait_step("ready")
        if st.get("step") != "ready":
            raise TestFailure("the remote desktop client is not ready: %r" % st)
        self.writer = open(self.fifo, "w")
        return streams

    def notify(self, method, signature, *args):
        """Calls RemoteDesktop.<method>(session, {}, *args) through the
        frontend; returns once the call has returned, raises on an error."""
        if self.writer is None:
            self.wait_ready()
        self.n += 1
        n = self.n
        self.writer.write(json.dumps({"n": n, "method": method,
                                      "args": [signature, list(args)]}) + "\n")
        self.writer.flush()

        def answered():
            for st in self.steps():
                if st.get("step") == "notify" and st.get("n") == n:
                    return st
            if not self.client.alive():
                raise TestFailure("the remote desktop client exited: %s"
                                  % self.client.log()[-3000:])
            raise NotYet("no answer to %s yet" % method)
        st = self.s.wait_for(answered, T(10), "%s through the portal" % method)
        if "error" in st:
            raise TestFailure("%s%r failed: %s" % (method, args, st["error"]))
        return st
