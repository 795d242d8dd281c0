#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Who may use RDP: TLS always, pinned certificates, accounts, the throttle.

- Without an account check oriel refuses to serve RDP beyond loopback
  (it exits at once, saying why).
- xfreerdp pinned to the fingerprint oriel logs (/cert:deny with
  fingerprint:sha256:...) logs on; pinned to another one it stops at TLS
  and never logs on.
- A client that wants standard RDP security (/sec:rdp, no TLS) is refused.
- An account marked view-only in the users file logs on as view-only.
- An unknown user is refused like a wrong password.
- Wrong passwords in a row pause the address: oriel refuses its next
  logons without checking them ("must wait"), and a right password gets
  in once the pause is over.
"""
import re
import subprocess
import tempfile
import time
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect

PASSWORD = "pinned-Pass-8812"
WRONG = "pinned-Wrong-0000"


def logons(s):
    return s.log_text().count("logged on as \"carol\"")


def main():
    port = vnc.free_port()
    r = subprocess.run([harness.exe("ORIEL"), "--backend", "headless", "--rdp",
                        "0.0.0.0:%d" % port], capture_output=True, text=True, timeout=30)
    expect(r.returncode != 0 and "refusing to serve RDP" in r.stderr,
           "oriel served RDP on 0.0.0.0 without accounts: %d %r" % (r.returncode, r.stderr))

    with tempfile.TemporaryDirectory(prefix="oriel-rdp-security-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("carol", PASSWORD),
                                         ("watcher", PASSWORD, "view-only")])
        with Session(outputs=["800x600"], args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            rdp.wait_listening(s, port)
            fingerprint = rdp.fingerprint(s)
            xvfb = rdp.Xvfb(s)
            try:
                pinned = rdp.XFreeRDP(s, xvfb, port, "carol", PASSWORD, name="pinned",
                                      cert="/cert:deny,fingerprint:sha256:" + fingerprint)
                pinned.window()
                s.wait_for(lambda: logons(s) == 1 or (_ for _ in ()).throw(NotYet("no logon")),
                           what="the pinned client to log on")
                pinned.close()

                # A view-only account logs on as such (its input is dropped).
                watcher = rdp.XFreeRDP(s, xvfb, port, "watcher", PASSWORD, name="watcher")
                watcher.window()
                s.wait_for(lambda: 'logged on as "watcher" (view-only)' in s.log_text() or
                           (_ for _ in ()).throw(NotYet("no view-only logon")),
                           what="the view-only logon")
                def listed_view_only():
                    clients = s.orielctl("rdp", "clients", json=True)
                    if [c["view_only"] for c in clients] != [True]:
                        raise NotYet("orielctl rdp clients: %r" % clients)
                    return True
                s.wait_for(listed_view_only, what="the view-only client alone in the list")
                watcher.close()

                other = "00:" * 31 + "00"
                wrong_pin = rdp.XFreeRDP(s, xvfb, port, "carol", PASSWORD, name="wrong-pin",
                                         cert="/cert:deny,fingerprint:sha256:" + other)
                expect(wrong_pin.wait_exit() != 0, "xfreerdp pinned elsewhere exited with 0")

                no_tls = rdp.XFreeRDP(s, xvfb, port, "carol", PASSWORD, name="no-tls",
                                      extra=["/sec:rdp"])
                expect(no_tls.wait_exit() != 0, "xfreerdp without TLS exited with 0")

                stranger = rdp.XFreeRDP(s, xvfb, port, "mallory", PASSWORD, name="stranger")
                expect(stranger.wait_exit() != 0, "an unknown user's xfreerdp exited with 0")
                expect("failed logon as \"mallory\"" in s.log_text(),
                       "oriel did not log the unknown user's failed logon")
                expect(logons(s) == 1, "a refused client logged on")

                # Wrong passwords until the address must wait.
                deadline = time.monotonic() + harness.T(60)
                n = 0
                while "must wait after failed logons" not in s.log_text():
                    expect(time.monotonic() < deadline, "no logon was paused after %d "
                           "wrong passwords" % n)
                    c = rdp.XFreeRDP(s, xvfb, port, "carol", WRONG, name="wrong-%d" % n)
                    n += 1
                    expect(c.wait_exit() != 0, "a wrong password's xfreerdp exited with 0")
                text = s.log_text()
                before = text[:text.index("must wait after failed logons")]
                counts = [int(c) for c in re.findall(r"failed logon as \"\w+\" from "
                                                     r"127\.0\.0\.1 \((\d+) in a row\)", before)]
                expect(counts and max(counts) >= 3, "the address had to wait after "
                       "failures %r" % counts)
                expect(logons(s) == 1, "a wrong password logged on")

                # Once the pause is over, the right password gets in.
                def right_gets_in():
                    c = rdp.XFreeRDP(s, xvfb, port, "carol", PASSWORD, name="after")
                    try:
                        time.sleep(1)
                        while c.alive() and logons(s) < 2:
                            time.sleep(0.2)
                        if logons(s) < 2:
                            raise NotYet("still paused")
                        return True
                    finally:
                        c.close()
                s.wait_for(right_gets_in, timeout=30, what="the right password after the pause")
                for name in ("pinned", "after"):
                    text = (s.tmp / ("%s.log" % name)).read_text(errors="replace")
                    expect(PASSWORD not in text, "the password is in %s's log" % name)
                expect(PASSWORD not in s.log_text() and WRONG not in s.log_text(),
                       "a password is in oriel's log")
            finally:
                xvfb.close()


if __name__ == "__main__":
    harness.run(main)
