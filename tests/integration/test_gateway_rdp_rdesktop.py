#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""rdesktop 1.9 logs in through oriel-gateway with alice's PAM account and
reaches her own session.

rdesktop announces REDIRECTION_SUPPORTED, then crashes on the Server
Redirection; in rdp-handover = auto the gateway knows it by its
malformed Erect Domain Request and relays it instead. So:
- the gateway logs one line saying rdesktop is relayed, and why, and
  sends it no redirection (rdesktop keeps running);
- rdesktop's window (in an Xvfb of the test's own) shows her session's
  xterm, and a line typed into rdesktop with xdotool reaches her xterm's
  shell, which writes it to her file;
- her session is the one her VNC login started (same oriel pid, one
  session in --list), and the gateway's log holds no password.
"""

import os
from pathlib import Path

import gateway
import harness
import rdp
from harness import NotYet, expect, expect_eq, tool
from test_rdp_rdesktop import RDesktop

OUTPUT = (1024, 768)
TYPED = "through the gateway@|"


def typed(host):
    try:
        with open(os.path.join(host.home("alice"), "typed.txt")) as f:
            return f.read()
    except OSError:
        return ""


def main():
    tool("rdesktop")
    tool("Xvfb")
    tool("xdotool")
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\noutput = %dx%d\n" % (
        gateway.XTERM_COMMAND, OUTPUT[0], OUTPUT[1]))
    xvfb = client = None
    try:
        front = gateway.Front(host, rdp=True)
        # Her session, started by a VNC login.
        rc, out, image = front.login("alice")
        expect(rc == 0 and image is not None, "her VNC login failed: %s" % out[-2000:])
        rows = host.sessions()
        expect_eq([r["user"] for r in rows], [host.users["alice"]], "--list: her session")
        pid = rows[0]["pid"]

        home = Path(host.base) / "rdesktop-home"
        home.mkdir()
        xvfb = rdp.Xvfb(front, size=(OUTPUT[0] + 200, OUTPUT[1] + 200))
        client = RDesktop(front, xvfb, front.rdp_port, 32, home, user=host.users["alice"],
                          password=host.passwords["alice"])

        box = gateway.wait_xterm_in_xvfb(front, client, xvfb, "rdesktop")

        expect("127.0.0.1 is rdesktop (its Erect Domain Request), which fails a "
               "redirection: it is relayed" in front.log(), "the gateway logs why it relays")
        front.wait_for(lambda: "is relayed to its session" in front.log() or
                       NotYet("no relay in the gateway's log"), what="the relay's log line")

        wid = client.window()[4]
        xvfb.xdotool("windowfocus", "--sync", wid)
        # Onto her xterm (box is in the Xvfb's root window).
        xvfb.xdotool("mousemove", "--sync", box[0] + box[2] // 2, box[1] + box[3] // 2)
        xvfb.xdotool("type", "--delay", "40", TYPED)
        xvfb.xdotool("key", "Return")
        front.wait_for(lambda: TYPED + "\n" in typed(host) or NotYet(repr(typed(host))),
                       what="her xterm's shell to get the line typed through rdesktop")
        expect(client.alive(), "rdesktop is still running")

        row = host.her_session("alice")
        expect_eq(row["pid"], pid, "her session's oriel pid after rdesktop's login")
        expect(host.passwords["alice"] not in front.log(), "her password is in the log")
    finally:
        if client:
            client.close()
        if xvfb:
            xvfb.close()
        host.close()


if __name__ == "__main__":
    harness.run(main)
