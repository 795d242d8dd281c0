#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Logins that may not proceed tell a client nothing more than a wrong
password does, at the gateway's VNC port (VeNCrypt Plain):

- the right password of a uid-0 account, of an account whose shell is
  nologin, of an expired account and of a locked account are each refused
  with the same failure string as alice's wrong password, and start no
  session;
- their times fall within the wrong password's band: over 10 tries of
  each (every try from a loopback address of its own, so that no throttle
  counts), each median is within 20 % of the wrong password's (the one
  place where the suite asserts a time: the spec asks for it);
- the gateway's log says the truth for each ("refused ... uid 0 may not
  log in", "... not a login shell", "... expired", "... locked"), and no
  password;
- a right password of such an account counts as a failure: after three
  of uid 0's from one address, alice's right password from it is refused
  while the address must wait.
"""

import secrets
import statistics
import threading
import time

import gateway
import harness
from harness import NotYet, expect, expect_eq, log, tool

TRIES = 10


def failure_string(out):
    """The server's reason as the viewer's libvncclient logged it."""
    lines = [l.split("libvncclient: ", 1)[1].strip() for l in out.splitlines()
             if "libvncclient: " in l and ("connection failed" in l or
                                            "uthentication failed" in l)]
    return lines[-1] if lines else None


def main():
    host = gateway.Host(("alice", "nolog", "expired", "locked"))
    root_alias = "origw_r00t_" + host.tag
    root_password = "pw-root-" + secrets.token_hex(6)
    gateway.run([tool("useradd"), "--non-unique", "--uid", "0", "--gid", "0",
                 "--no-create-home", "--shell", "/bin/sh", root_alias])
    try:
        gateway.run([tool("chpasswd")], stdin="%s:%s\n" % (root_alias, root_password))
        gateway.run([tool("usermod"), "--shell", "/usr/sbin/nologin", host.users["nolog"]])
        gateway.run([tool("usermod"), "--expiredate", "2000-01-01", host.users["expired"]])
        gateway.run([tool("usermod"), "--lock", host.users["locked"]])
        host.users["root"] = root_alias
        host.passwords["root"] = root_password
        front = gateway.Front(host)

        kinds = {  # what is tried: (user, password, what the log must say)
            "wrong": ("alice", "not-" + host.passwords["alice"],
                      'failed login as "%s"' % host.users["alice"]),
            "root": ("root", root_password,
                     'refused "%s" from %%s: uid 0 may not log in' % root_alias),
            "nologin": ("nolog", host.passwords["nolog"],
                        'refused "%s" from %%s: its shell /usr/sbin/nologin is not a '
                        'login shell' % host.users["nolog"]),
            "expired": ("expired", host.passwords["expired"],
                        'refused "%s" from %%s: the account expired' % host.users["expired"]),
            "locked": ("locked", host.passwords["locked"],
                       'refused "%s" from %%s: the account is locked' % host.users["locked"]),
        }
        times = {k: [] for k in kinds}
        strings = {k: set() for k in kinds}
        errors = []

        def attempt(kind, source):
            short, password, _said = kinds[kind]
            try:
                start = time.monotonic()
                rc, out, _ = front.login(short, password=password, bind=source)
                took = time.monotonic() - start
                expect(rc == 2 and "auth-failed" in out,
                       "%s from %s: the viewer exited %d:\n%s" % (kind, source, rc,
                                                                 out[-1500:]))
                times[kind].append(took)
                strings[kind].add(failure_string(out))
            except BaseException as e:  # reported from the main thread
                errors.append(e)

        # Rounds of one try of each kind at once, so that all meet the same load.
        for i in range(TRIES):
            threads = [threading.Thread(target=attempt, args=(
                kind, "127.0.%d.%d" % (10 + n, 10 + i))) for n, kind in enumerate(kinds)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(harness.T(120))
            if errors:
                raise errors[0]

        expect(len(strings["wrong"]) == 1 and None not in strings["wrong"],
               "a wrong password's failure string: %r" % strings["wrong"])
        medians = {k: statistics.median(v) for k, v in times.items()}
        log("medians of %d tries: %s" % (TRIES, ", ".join(
            "%s %.2f s" % (k, m) for k, m in medians.items())))
        for kind in kinds:
            expect_eq(strings[kind], strings["wrong"], "what a client hears for %s" % kind)
            expect(0.8 <= medians[kind] / medians["wrong"] <= 1.2,
                   "%s is refused in %.2f s, a wrong password in %.2f s (medians): the "
                   "difference tells a right password" % (kind, medians[kind],
                                                          medians["wrong"]))
            said = kinds[kind][2]
            if "%s" in said:
                said = said % ("127.0.%d.10" % (10 + list(kinds).index(kind)))
            expect(said in front.log(), "the gateway's log says %r" % said)
        expect_eq(host.sessions(), [], "sessions after the refusals")

        # A right password of uid 0's is a failure too: three, and the address waits.
        for _ in range(3):
            rc, out, _ = front.login("root", password=root_password, bind="127.0.30.1")
            expect(rc == 2 and "auth-failed" in out, "uid 0 from 127.0.30.1: %d" % rc)
        rc, out, _ = front.login("alice", bind="127.0.30.1")
        expect(rc == 2 and "auth-failed" in out,
               "alice's right password after three of uid 0's from the same address: "
               "the viewer exited %d" % rc)
        front.wait_for(lambda: "127.0.30.1 must wait before logging in again" in front.log()
                       or NotYet("not logged"), what="the gateway to make 127.0.30.1 wait")
        rc, out, img = front.login("alice", bind="127.0.30.2")
        expect(rc == 0 and img is not None, "alice from 127.0.30.2: %d\n%s" % (rc, out[-1500:]))

        for secret in (root_password, host.passwords["nolog"], host.passwords["expired"],
                       host.passwords["locked"], host.passwords["alice"]):
            expect(secret not in front.log(), "a password is in the gateway's log")
    finally:
        host.users.pop("root", None)
        gateway.run([tool("userdel"), "--force", root_alias], check=False)
        host.close()


if __name__ == "__main__":
    harness.run(main)
