#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Guessing routing tokens at the gateway's RDP port is throttled like
guessing passwords:

- 1000 made-up routing tokens from 127.0.0.2, each in an X.224
  Connection Request: the gateway closes every one without answering;
- the gateway's log holds fewer than 20 lines for them (the rest are
  counted), and none of the tokens;
- then alice's right password from 127.0.0.2 is refused while the
  address must wait: no redirection, no session;
- from 127.0.0.3 the same client's login gets in and shows her xterm.
"""

import secrets

import gateway
import harness
import rdp
from harness import NotYet, expect, expect_eq, log

GUESSES = 1000
GUESSER = "127.0.0.2"


def main():
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\n" %
                        gateway.XTERM_COMMAND)
    try:
        front = gateway.Front(host, rdp=True, vnc=False)
        alice = host.users["alice"]
        password = rdp.write_secret(front, host.passwords["alice"])
        lines_before = len(front.log().splitlines())

        guessed = [secrets.token_hex(16) for _ in range(GUESSES)]
        expect_eq([t for t in guessed if gateway.token_answered(front, t, GUESSER)], [],
                  "made-up routing tokens the gateway answered")
        front.wait_for(lambda: "%s must wait before logging in again" % GUESSER in
                       front.log() or NotYet("no wait logged"),
                       what="%s to be made to wait" % GUESSER)
        guess_lines = front.log().splitlines()[lines_before:]
        log("%d log lines for %d guesses:\n%s" % (len(guess_lines), GUESSES,
                                                  "\n".join(guess_lines)))
        expect(len(guess_lines) < 20, "%d log lines for %d guesses" % (len(guess_lines),
                                                                      GUESSES))
        expect(not any(t in front.log() for t in guessed), "a token is in the log")

        def bound_login(source):
            return rdp.rdpclient_snapshot(front, front.rdp_port, user=alice,
                                          password_file=password, timeout=30,
                                          extra=["--bind", source])
        rc, _image, lines = bound_login(GUESSER)
        expect(rc != 0, "her right password got in from the guessing address")
        expect(not [l for l in lines if l.startswith("redirected")],
               "the guessing address was redirected: %r" % lines[-5:])
        expect_eq(host.sessions(), [], "sessions after the guessing address's login")

        # The same client from another address gets in, and shows her xterm.
        rc, image, lines = bound_login("127.0.0.3")
        expect(rc == 0 and image is not None, "her login from 127.0.0.3: %r" % lines[-5:])
        gateway.xterm_box(image)
        expect_eq([r["user"] for r in host.sessions()], [alice], "her session")
        expect(host.passwords["alice"] not in front.log(), "her password is in the log")
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
