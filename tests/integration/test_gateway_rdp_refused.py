#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Logins the gateway's RDP port refuses, before any redirection:

- an account of uid 0 (a second name for root, with a password PAM
  takes) is refused: root never logs in through the gateway, and the
  gateway's log says why;
- a wrong password and an unknown user are refused, and start no
  session; the gateway logs the failed logins, never the password;
- after six failures from one address, even alice's right password
  from it is refused while the address must wait (the gateway logs it),
  as at the VNC port.
Each refused client gets no redirection.
"""

import secrets

import gateway
import harness
import rdp
from harness import expect, expect_eq, log, tool


def attempt(front, user, password, extra=()):
    """One snapshot attempt: (returncode, lines)."""
    path = rdp.write_secret(front, password)
    rc, _image, lines = rdp.rdpclient_snapshot(front, front.rdp_port, user=user,
                                              password_file=path, timeout=30,
                                              extra=extra)
    return rc, lines


def main():
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\n" %
                        gateway.XTERM_COMMAND)
    root_alias = "origw_r00t_" + host.tag
    root_password = "pw-root-" + secrets.token_hex(6)
    gateway.run([tool("useradd"), "--non-unique", "--uid", "0", "--gid", "0",
                 "--no-create-home", "--shell", "/bin/sh", root_alias])
    try:
        gateway.run([tool("chpasswd")], stdin="%s:%s\n" % (root_alias, root_password))
        front = gateway.Front(host, rdp=True, vnc=False)
        alice = host.users["alice"]

        rc, lines = attempt(front, root_alias, root_password)
        expect(rc != 0, "uid 0 got in: %r" % lines[-5:])
        expect(not [l for l in lines if l.startswith("redirected")], "uid 0 was redirected")
        said = 'refused "%s" from 127.0.0.1: uid 0 may not log in' % root_alias
        front.wait_for(lambda: said in front.log() or harness.NotYet("not logged yet"),
                       what="the gateway to refuse uid 0")

        for user, password, said in (
                (alice, "wrong-" + secrets.token_hex(4), 'failed login as "%s"' % alice),
                ("origw_nobody_" + host.tag, "whatever",
                 'refused "origw_nobody_%s" from 127.0.0.1: there is no such account' %
                 host.tag)):
            rc, lines = attempt(front, user, password)
            expect(rc != 0, "%s got in with a wrong password" % user)
            expect(not [l for l in lines if l.startswith("redirected")],
                   "%s was redirected" % user)
            front.wait_for(lambda: said in front.log() or harness.NotYet("not logged yet"),
                           what="the failed login of %s in the log" % user)
        expect_eq(host.sessions(), [], "sessions after the refused logins")

        # More failures, until the address must wait longer than a login takes (8 s).
        def failures():
            return front.log().count("failed login as") + front.log().count('refused "')

        def six_failures():
            if failures() >= 6:
                return True
            rc, _lines = attempt(front, alice, "wrong-%d" % failures())
            expect(rc != 0, "a wrong password got in")
            raise harness.NotYet("%d failed logins" % failures())
        front.wait_for(six_failures, 90, "six failed logins from 127.0.0.1")
        rc, lines = attempt(front, alice, host.passwords["alice"])
        expect(rc != 0, "the right password got in while the address must wait")
        expect_eq(host.sessions(), [], "sessions while the address must wait")
        # Said once at least: past a few a minute, such lines are counted, not repeated.
        expect("RDP: 127.0.0.1 must wait before logging in again" in front.log(),
               "the gateway logs the wait: %s" % front.log()[-2000:])
        expect(host.passwords["alice"] not in front.log(), "her password is in the log")
        expect(root_password not in front.log(), "uid 0's password is in the log")
        log("refused: uid 0, wrong password, unknown user, and the throttled address")
    finally:
        gateway.run([tool("userdel"), "--force", root_alias], check=False)
        host.close()


if __name__ == "__main__":
    harness.run(main)
