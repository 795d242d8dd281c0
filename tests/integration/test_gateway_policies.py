#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The gateway's reconnect policies, with two viewers of alice's:

- take-over (`reconnect = take-over`): her second login takes her session
  over: the first viewer is disconnected, the second sees her xterm, and
  it is the same oriel (pid) with one client;
- new (`reconnect = new`): her second login gets a second session of its
  own (another oriel pid, another runtime dir), both viewers stay
  connected and both see an xterm.
"""

import gateway
import harness
from harness import NotYet, expect, expect_eq, log


def main():
    host = gateway.Host(("alice",))
    try:
        ini = "[session]\ncommand = %s\nreconnect = %%s\n" % gateway.XTERM_COMMAND
        host.config_path().write_text(ini % "take-over")
        front = gateway.Front(host)
        first = front.viewer("alice", name="first")
        first.wait_connected()
        first.wait_framebuffer(gateway.xterm_box, timeout=30, what="her xterm")
        pid = host.sessions()[0]["pid"]
        second = front.viewer("alice", name="second")
        second.wait_connected()
        expect_eq(first.wait_exit_line(timeout=30), "disconnected",
                  "the first viewer, when the second took over")
        second.wait_framebuffer(gateway.xterm_box, timeout=30, what="her xterm (second)")
        expect_eq([(r["pid"], r["clients"]) for r in host.sessions()], [(pid, "1")],
                  "--list after the take-over: her session, with the second viewer")
        second.send("quit")
        second.wait(20)
        front.stop()
        host.gateway("--terminate", host.users["alice"])

        host.config_path().write_text(ini % "new")
        front = gateway.Front(host)
        one = front.viewer("alice", name="one")
        one.wait_connected()
        one.wait_framebuffer(gateway.xterm_box, timeout=30, what="her first session's xterm")
        two = front.viewer("alice", name="two")
        two.wait_connected()
        two.wait_framebuffer(gateway.xterm_box, timeout=30, what="her second session's xterm")
        rows = host.sessions()
        log("--list: %r" % rows)
        expect_eq(sorted(r["clients"] for r in rows), ["1", "1"],
                  "--list: two sessions with a client each")
        expect(len({r["pid"] for r in rows}) == 2 and len({r["dir"] for r in rows}) == 2,
               "her two sessions have their own oriel and runtime dir")
        expect(one.alive() and two.alive(), "both viewers are still connected")
        for v in (one, two):
            v.send("quit")
            v.wait(20)
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
