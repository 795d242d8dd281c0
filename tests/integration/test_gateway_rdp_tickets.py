#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What an attacker can do with the gateway's RDP redirection, and cannot:

- a made-up routing token in an X.224 Connection Request: the gateway
  closes that connection without answering it;
- alice's real routing token, sent again after her client used it: the
  same (a ticket is taken once);
- a client that logs in as alice but brings back an altered password
  cookie on its redirected connection (an attacker who saw the routing
  token on the wire has no cookie): her session refuses it;
- meanwhile alice's first client goes on getting her session's pixels,
  her session keeps running, and a fresh login of hers still gets in.
"""

import secrets

import gateway
import harness
import rdp
import vnc
from harness import NotYet, expect, expect_eq, log


def main():
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\n" %
                        gateway.XTERM_COMMAND)
    try:
        front = gateway.Front(host, rdp=True, vnc=False)
        alice = host.users["alice"]
        password = rdp.write_secret(front, host.passwords["alice"])

        expect(not gateway.token_answered(front, secrets.token_hex(16)),
               "a made-up routing token was answered")
        front.wait_for(lambda: "an unknown, used or expired routing token" in front.log() or
                       NotYet("not logged"), what="the gateway to log the made-up token")

        client = rdp.RdpClient(front, front.rdp_port, user=alice, password_file=password)
        client.wait_connected(timeout=40)
        client.wait_framebuffer(gateway.xterm_box, timeout=30, what="her xterm")
        tokens = [l.split()[1] for l in client.lines_since(0, "redirected")]
        expect_eq(len(tokens), 1, "routing tokens the client got")
        pid = host.sessions()[0]["pid"]

        unknown = front.log().count("an unknown, used or expired routing token")
        expect(not gateway.token_answered(front, tokens[0]),
               "her used routing token was answered again")
        front.wait_for(lambda: front.log().count(
            "an unknown, used or expired routing token") > unknown or NotYet("not logged"),
            what="the gateway to log the used token")

        rc, _image, lines = rdp.rdpclient_snapshot(front, front.rdp_port, user=alice,
                                                  password_file=password, timeout=30,
                                                  extra=["--bad-cookie"])
        expect(rc != 0, "a client with an altered cookie got in")
        expect(len([l for l in lines if l.startswith("redirected")]) == 1,
               "the altered client was redirected: %r" % lines[-5:])
        front.wait_for(lambda: "did not bring the password cookie" in
                       host.session_log(host.sessions()[0]) or NotYet("not logged"),
                       what="her session to refuse the altered cookie")

        # Her first client and her session go on.
        expect(client.alive(), "her first client was dropped")
        expect_eq([(r["pid"], r["clients"]) for r in host.sessions()], [(pid, "1")],
                  "--list: her session, her first client its only one")
        mark = client.mark()
        client.send("snapshot %s" % (front.tmp / "after.ppm"))
        img = vnc.read_ppm(front.tmp / "after.ppm")
        gateway.xterm_box(img)
        expect(client.lines_since(mark, "done"), "the first client answers")
        rc, img, lines = rdp.rdpclient_snapshot(front, front.rdp_port, user=alice,
                                               password_file=password, timeout=30)
        expect(rc == 0 and img is not None, "a fresh login of hers: %r" % lines[-5:])
        gateway.xterm_box(img)
        expect_eq([r["pid"] for r in host.sessions()], [pid], "her one session")
        log("made-up, used and cookie-less tokens refused; her session goes on")
        client.kill()
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
