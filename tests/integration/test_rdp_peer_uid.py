#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Without accounts, a session's RDP serves only the uid that runs it.

oriel runs as root with no accounts (no --rdp-users, --rdp-pam, --rdp-sam),
serving RDP on 127.0.0.1, with a coloured window shown.
- As `nobody` (runuser), oriel-test-rdpclient (libfreerdp-client2) is
  refused: it reports the logon refused (auth-failed, exit 2) and FreeRDP
  names the reason it was sent, ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES,
  whatever user name and password it gives. It never gets a picture, and
  oriel's log names uid 65534.
- As root, the same client logs on and sees the window.
"""
import harness
import peer_uid
import rdp
import vnc
from harness import Session, expect, expect_eq, geometry

COLOUR = (0xc0, 0x60, 0x20)
REFUSED_UID = "it comes from uid 65534, not uid 0"


def main():
    port = vnc.free_port()
    with peer_uid.Outsiders() as out:
        client_exe = out.client("ORIEL_TEST_RDPCLIENT")
        password = out.base / "password"
        password.write_text("any password\n")
        password.chmod(0o644)
        with Session(outputs=["1024x768"], xwayland="off", args=rdp.rdp_args(port)) as s:
            window = s.spawn_colour(COLOUR, size=(300, 200), title="rdp peer uid",
                                    app_id="org.oriel.test.rdppeeruid")
            window.wait_ready(size=(300, 200))
            rect = geometry(s.wait_window(app_id="org.oriel.test.rdppeeruid"))
            s.wait_colour(rect, COLOUR, tolerance=0)
            rdp.wait_listening(s, port)

            argv = rdp.rdpclient_argv(port, ["snapshot", out.base / "never.ppm"],
                                      user="nobody", password_file=password,
                                      size=(1024, 768), gfx="off", timeout=15)
            res = out.run("nobody", [client_exe] + argv[1:], timeout=40)
            expect_eq(res.returncode, 2, "oriel-test-rdpclient's exit as nobody (%s)"
                      % res.stdout.strip())
            expect("auth-failed" in res.stdout.splitlines(),
                   "nobody's client reports the refusal:\n%s" % res.stdout)
            expect("ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES" in res.stderr,
                   "FreeRDP shows why:\n%s" % res.stderr[-3000:])
            expect(not (out.base / "never.ppm").exists(), "nobody got a picture")
            s.wait_for(lambda: "RDP: refused 127.0.0.1: " + REFUSED_UID in s.log_text(),
                       what="the log to name uid 65534")
            log = s.log_text()
            expect("closing the connection from 127.0.0.1: not the session's user" in log,
                   "the log says the connection was closed")
            expect("logged on" not in log and "no accounts are checked" not in log,
                   "nobody logged on")

            rc, img, lines = rdp.rdpclient_snapshot(s, port, user="root",
                                                    password_file=password,
                                                    size=(1024, 768), gfx="off")
            expect(rc == 0 and img is not None, "root's client: %s" % lines[-10:])
            n = img.count_colour(rect, COLOUR)
            expect_eq(n, rect[2] * rect[3], "pixels of the window's colour for root")
            expect("uid 0, not" not in s.log_text(), "root was refused")


if __name__ == "__main__":
    harness.run(main)
