#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Wrong passwords at the gateway's VNC port:

- a wrong password is refused (the viewer reports auth-failed), starts no
  session, and the gateway logs the failed login without the password;
- after a few failures from one address, even the right password from it
  is refused while the address must wait (the gateway logs it), and gets
  in once the wait is over; a viewer from another address is not held up;
- an unknown user is refused as slowly as a known user with a wrong
  password: the medians of their refusals (each from an address of its
  own, so that no throttle counts) are within a factor of two.
"""

import statistics
import time

import gateway
import harness
from harness import NotYet, TestFailure, expect, expect_eq, log

SAMPLES = 5


def main():
    host = gateway.Host(("alice",))
    try:
        front = gateway.Front(host)
        alice = host.users["alice"]

        def refused(rc, out, what):
            expect(rc == 2 and "auth-failed" in out,
                   "%s: the viewer exited %d:\n%s" % (what, rc, out[-1500:]))

        rc, out, _ = front.login("alice", password="not-" + host.passwords["alice"])
        refused(rc, out, "a wrong password")
        expect_eq(host.sessions(), [], "sessions after a wrong password")
        expect('failed login as "%s" from 127.0.0.1' % alice in front.log(),
               "the gateway logs the failed login")

        # More failures, until the address must wait far longer than a login takes,
        # even under a sanitizer on a busy machine: after 7, 16 s.
        def failures():
            return front.log().count('failed login as "%s" from 127.0.0.1' % alice)

        def seven_failures():
            if failures() >= 7:
                return True
            rc, out, _ = front.login("alice", password="wrong-%d" % failures())
            refused(rc, out, "wrong password %d" % (failures() + 1))
            raise NotYet("%d failed logins" % failures())
        front.wait_for(seven_failures, 90, "seven failed logins from 127.0.0.1")
        rc, out, _ = front.login("alice")
        refused(rc, out, "the right password right after seven failures")
        # Said once at least: past a few a minute, such lines are counted, not repeated.
        expect("127.0.0.1 must wait before logging in again" in front.log(),
               "the gateway says 127.0.0.1 must wait")
        expect_eq(host.sessions(), [], "sessions while 127.0.0.1 must wait")

        # Another address is not held up.
        rc, out, img = front.login("alice", bind="127.0.0.9")
        expect(rc == 0 and img is not None, "a login from 127.0.0.9: %d\n%s" % (rc, out[-1500:]))
        pid = host.sessions()[0]["pid"]

        def gets_in():
            rc, out, img = front.login("alice")
            if rc != 0:
                raise NotYet("refused: %s" % out.strip().splitlines()[-1:])
            return img
        front.wait_for(gets_in, 60, "the right password to get in from 127.0.0.1 "
                       "once the wait is over")
        expect_eq([r["pid"] for r in host.sessions()], [pid], "her session")

        # Unknown user against a wrong password, each from a fresh address.
        known, unknown = [], []
        for i in range(SAMPLES):
            for name, times, short in (("known", known, "alice"),
                                       ("unknown", unknown, "nobody_%s" % host.tag)):
                start = time.monotonic()
                rc, out, _ = front.login(short, password="wrong-%d" % i,
                                         bind="127.0.%d.%d" % (1 if times is known else 2,
                                                               10 + i))
                times.append(time.monotonic() - start)
                refused(rc, out, "%s user %d" % (name, i))
        mk, mu = statistics.median(known), statistics.median(unknown)
        log("refusals: known user %.2f s, unknown user %.2f s (medians of %d)" % (
            mk, mu, SAMPLES))
        expect(0.5 <= mu / mk <= 2.0, "an unknown user is refused in %.2f s, a known one "
               "in %.2f s (medians): the difference tells who has an account" % (mu, mk))
        expect("nobody_%s" % host.tag not in [r["user"] for r in host.sessions()],
               "the unknown user has a session")
        for secret in [host.passwords["alice"]] + ["wrong-%d" % i for i in range(SAMPLES)]:
            expect(secret not in front.log(), "a password is in the gateway's log")
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
