#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""WebSocket viewers log in with accounts, and Plain stays where it is safe.

oriel runs with --vnc-users only (no password file). Over plain ws on
loopback:
- the session's own user (root here) is offered VeNCrypt, whose only
  sub-type is Plain (256), and logs in with an account from the file, as
  noVNC does, up to the ServerInit; the log names the account;
- a wrong password and an unknown account get the same failure, and the
  log names the failed logins;
- another uid (nobody) is offered no security type at all: no VeNCrypt
  Plain, with a reason that asks for wss, and the log says why.
"""
import harness
import peer_uid
import vnc
from harness import Session, expect, expect_eq

OUTPUT = "1024x768"


def main():
    port = vnc.free_port()
    with peer_uid.Outsiders() as out:
        users = vnc.write_users_file(out.base, [("webuser", "right horse")])
        with Session(outputs=[OUTPUT], args=vnc.vnc_args(port, "--vnc-users", users)) as s:
            check(s, out, port)


def wait_log(s, text, what):
    def logged():
        if text not in s.log_text():
            raise harness.NotYet(what)
        return True
    s.wait_for(logged, what=what)


def check(s, out, port):
    vnc.wait_listening(s, vnc.tcp(port))
    target = "%s:%d" % (vnc.LOCALHOST, port)

    def plain(user, password):
        res = out.run("root", ["python3", out.base / "peer_probe.py", "wsplain", target],
                      env={"PROBE_USER": user, "PROBE_PASSWORD": password})
        expect(res.returncode == 0, "peer_probe.py failed: %s" % res.stderr[-2000:])
        return res.stdout.strip()

    expect_eq(out.probe("root", "wstypes", target), "types 19",
              "the session's own user over plain ws")
    expect_eq(plain("webuser", "right horse"), "in " + OUTPUT,
              "an account's login over plain ws on loopback")
    wait_log(s, 'logged in as "webuser" over WebSocket (Plain)',
             "the account's login in the log")

    expect_eq(plain("webuser", "wrong horse"), "failed authentication failed",
              "a wrong password")
    expect_eq(plain("nosuchuser", "right horse"), "failed authentication failed",
              "an unknown account looks like a wrong password")
    wait_log(s, 'failed login as "webuser" from 127.0.0.1 (Plain',
             "the failed login in the log")
    wait_log(s, 'failed login as "nosuchuser" from 127.0.0.1 (Plain',
             "the unknown account's failed login in the log")

    line = out.probe("nobody", "wstypes", target)
    expect(line.startswith("refused ") and "wss" in line,
           "nobody over plain ws must be offered nothing: %s" % line)
    line = out.probe("nobody", "wsplain", target)
    expect(line.startswith("refused "), "nobody's Plain login over plain ws: %s" % line)
    wait_log(s, "asks for a login over plain WebSocket", "the refusal in the log")
    expect('logged in as "webuser"' in s.log_text() and
           s.log_text().count("logged in as") == 1,
           "exactly one login succeeded")


if __name__ == "__main__":
    harness.run(main)
