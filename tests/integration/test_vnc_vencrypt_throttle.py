#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Failed VeNCrypt logins are throttled per source address.

With a users file, three wrong passwords from 127.0.0.40 (X509Plain, each
logged with the user name, the address and the count) make oriel refuse
that address for a while: its next connection is closed before any
greeting, and oriel logs why.  Meanwhile a viewer from 127.0.0.41 logs in
at once.  Once the pause is over (1 s after the third failure), the right
password from 127.0.0.40 gets in again.  No password reaches the log.
"""
import socket
import tempfile
import time
from pathlib import Path

import harness
import vnc
from harness import NotYet, Session, T, expect, expect_eq

PASSWORD = "throttle-Pass-6610"
WRONG = "throttle-Wrong-0000"
BAD = "127.0.0.40"
GOOD = "127.0.0.41"


def greeted(port, source):
    """True if a connection from source gets an RFB greeting; False if
    oriel closes it first."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.settimeout(T(10))
    try:
        s.connect((vnc.LOCALHOST, port))
        data = b""
        while len(data) < 12:
            chunk = s.recv(12 - len(data))
            if not chunk:
                return False
            data += chunk
        return data.startswith(b"RFB ")
    except ConnectionResetError:
        return False
    finally:
        s.close()


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-throttle-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("alice", PASSWORD)])
        right = vnc.write_secret_in(d, "right", PASSWORD)
        wrong = vnc.write_secret_in(d, "wrong", WRONG)
        port = vnc.free_port()
        with Session(outputs=["640x480"], args=vnc.vnc_args(port, "--vnc-users", users)) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            cert, _fp, _made = vnc.certificate(s)
            for i in range(1, 4):
                v = vnc.Viewer(s, vnc.tcp(port), name="wrong-%d" % i, user="alice",
                               password_file=wrong, ca=cert, bind=BAD)
                expect_eq((v.wait_exit_line(), v.proc.returncode), ("auth-failed", 2),
                          "wrong password %d" % i)
                want = 'failed login as "alice" from %s (X509Plain, %d in a row)' % (BAD, i)
                expect(want in s.log_text(), "oriel's log lacks %r" % want)
            third = time.monotonic()
            refused_now = not greeted(port, BAD)
            if time.monotonic() - third < 1:
                # Still within the pause: the connection must have been refused.
                expect(refused_now, "%s was greeted right after three failed logins" % BAD)
                expect("refusing %s for now: too many failed logins" % BAD in s.log_text(),
                       "oriel does not log why it refuses %s" % BAD)
            else:
                harness.log("the machine was too slow to look within the 1 s pause")

            v = vnc.Viewer(s, vnc.tcp(port), name="other-address", user="alice",
                           password_file=right, ca=cert, bind=GOOD)
            v.wait_connected()
            v.wait_line("frame", what="a frame at the viewer from %s" % GOOD)

            def greeted_again():
                if not greeted(port, BAD):
                    raise NotYet("%s is still refused" % BAD)
                return True
            s.wait_for(greeted_again, 20, "%s to be greeted again after the pause" % BAD)
            w = vnc.Viewer(s, vnc.tcp(port), name="right-after-pause", user="alice",
                           password_file=right, ca=cert, bind=BAD)
            w.wait_connected()
            expect('viewer %s logged in as "alice"' % BAD in s.log_text(),
                   "the right password from %s did not log in after the pause" % BAD)
            for secret in (PASSWORD, WRONG):
                expect(secret not in s.log_text(), "a password is in oriel's log")
            v.close()
            w.close()


if __name__ == "__main__":
    harness.run(main)
