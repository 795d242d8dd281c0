#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An ordinary user's session without accounts serves her alone.

Two new users, alice and bob (useradd, removed at the end). alice runs
oriel (runuser) with no accounts, serving VNC on 127.0.0.1, on a Unix
socket that the test opens to everyone (0777), and RDP on 127.0.0.1.
- bob is refused on each: raw RFB (no security types; the reason names
  his uid and hers), WebSocket (403), the Unix socket, and RDP
  (oriel-test-rdpclient: auth-failed); oriel's log names his uid.
- root is no exception: it is not the session's user either.
- alice gets in on each: RFB up to the ServerInit over TCP, WebSocket and
  the Unix socket, and her RDP client writes a picture of the desktop.
"""
import os
import re
import signal
import subprocess

import harness
import peer_uid
import vnc
from harness import T, TestFailure, expect, expect_eq

OUTPUT = "640x480"
PASSED_ENV = ("PATH", "ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS")


class UserSession:
    """oriel as user, headless, without Xwayland or a bus."""

    def __init__(self, out, user, args):
        self.home = out.home(user)
        runtime = self.home / "runtime"
        runtime.mkdir(mode=0o700)
        uid = peer_uid.uid_of(user)
        os.chown(runtime, uid, -1)
        self.log_path = out.base / ("oriel-%s.log" % user)
        env = {
            "XDG_RUNTIME_DIR": str(runtime),
            "WLR_BACKENDS": "headless",
            "WLR_RENDERER": "pixman",
            "WLR_LIBINPUT_NO_DEVICES": "1",
            "LC_ALL": "C.UTF-8",
        }
        argv = out.argv(user, [out.client("ORIEL"), "--backend", "headless", "--renderer",
                               "pixman", "--output", OUTPUT, "--xwayland", "off",
                               "--dbus", "off", "-d"] + args + ["--", "sleep", "1000000"],
                        env=env)
        with open(self.log_path, "wb") as logf:
            self.proc = subprocess.Popen(
                argv, env={k: out.env[k] for k in PASSED_ENV if k in out.env},
                stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT,
                start_new_session=True, cwd=str(out.base))

    def log_text(self):
        return self.log_path.read_text(errors="replace")

    def wait_log(self, text, what):
        def logged():
            if self.proc.poll() is not None:
                raise TestFailure("oriel exited (%s):\n%s" % (self.proc.returncode,
                                                              self.log_text()[-4000:]))
            if text not in self.log_text():
                raise harness.NotYet(what)
            return True
        harness.wait_for(logged, what=what)

    def stop(self):
        """Stops oriel as SIGTERM does; sanitizer reports in its log fail."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=T(15))
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        reports = [line for line in self.log_text().splitlines()
                   if re.search(r"ERROR: (Address|Leak)Sanitizer|: runtime error: ", line)]
        expect(not reports, "alice's oriel: %s" % reports[:5])


def rdp_client(out):
    """Our RDP client, when this build has RDP."""
    try:
        return out.client("ORIEL_TEST_RDPCLIENT")
    except TestFailure:
        return None


def main():
    port, rdp_port = vnc.free_port(), vnc.free_port()
    with peer_uid.Outsiders() as out:
        alice, bob = out.add_user("alice"), out.add_user("bob")
        alice_uid, bob_uid = peer_uid.uid_of(alice), peer_uid.uid_of(bob)
        rdpclient = rdp_client(out)
        sock_dir = out.base / "alice-sockets"
        sock_dir.mkdir(mode=0o755)
        os.chown(sock_dir, alice_uid, -1)
        sock = sock_dir / "vnc.sock"
        args = ["--vnc", "127.0.0.1:%d" % port, "--vnc-unix", str(sock)]
        if rdpclient:
            args += ["--rdp", "127.0.0.1:%d" % rdp_port]
        session = UserSession(out, alice, args)
        try:
            session.wait_log("VNC: listening on Unix socket", "alice's VNC listeners")
            if rdpclient:
                session.wait_log("RDP: listening on 127.0.0.1:%d" % rdp_port,
                                 "alice's RDP listener")
            os.chmod(sock, 0o777)
            tcp = "127.0.0.1:%d" % port
            not_hers = "it comes from uid %d, not uid %d" % (bob_uid, alice_uid)

            for mode, target in (("rfb", tcp), ("ws", tcp), ("rfb", str(sock))):
                line = out.probe(bob, mode, target)
                expect(line.startswith("refused ") and not_hers in line,
                       "bob's %s on %s: %s" % (mode, target, line))
            expect(out.probe(bob, "ws", tcp).startswith("refused HTTP/1.1 403"),
                   "bob's WebSocket gets 403")
            session.wait_log("VNC: refused 127.0.0.1: " + not_hers, "bob's uid in the log")
            session.wait_log("VNC: refused a connection on the Unix socket: " + not_hers,
                             "bob's uid in the log for the Unix socket")
            line = out.probe("root", "rfb", tcp)
            expect(line.startswith("refused ") and
                   "it comes from uid 0, not uid %d" % alice_uid in line,
                   "root is not alice: %s" % line)

            for mode, target in (("rfb", tcp), ("ws", tcp), ("rfb", str(sock))):
                expect_eq(out.probe(alice, mode, target), "in " + OUTPUT,
                          "alice's %s on %s" % (mode, target))

            if rdpclient:
                password = out.base / "password"
                password.write_text("anything\n")
                password.chmod(0o644)

                def rdp_as(user, path):
                    return out.run(user, [rdpclient, "--timeout", str(int(T(15))), "--user",
                                          user, "--password-file", password, "--gfx", "off",
                                          "127.0.0.1:%d" % rdp_port, "snapshot", path],
                                   timeout=40)
                res = rdp_as(bob, out.home(bob) / "never.ppm")
                expect(res.returncode == 2 and "auth-failed" in res.stdout.splitlines(),
                       "bob's RDP client (%d): %s" % (res.returncode, res.stdout))
                session.wait_log("RDP: refused 127.0.0.1: " + not_hers,
                                 "bob's uid in the log for RDP")
                picture = out.home(alice) / "alice.ppm"
                res = rdp_as(alice, picture)
                expect(res.returncode == 0, "alice's RDP client (%d): %s %s" % (
                    res.returncode, res.stdout, res.stderr[-2000:]))
                img = vnc.read_ppm(picture)
                expect_eq((img.width, img.height), (1024, 768), "alice's RDP desktop")
            log = session.log_text()
            expect("uid %d, not" % alice_uid not in log, "alice was refused somewhere")
        except BaseException:
            print(session.log_text()[-6000:])
            session.stop()
            raise
        session.stop()


if __name__ == "__main__":
    harness.run(main)
