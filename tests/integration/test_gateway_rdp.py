#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""alice logs in through oriel-gateway's RDP port with the libfreerdp test
client, which follows the gateway's Server Redirection by itself:

- the client says the redirection came (a routing token), then decodes a
  desktop of her session's output size that shows her session's xterm
  (its background colour, over an area of its size, where her session
  placed it);
- her oriel runs with her uid, and --list counts the client;
- the client's TCP connection is held by her oriel, not by the gateway:
  the gateway copies no pixels;
- over VNC she reaches the same session (the same oriel pid) while the
  RDP client is still connected, and the RDP client's session goes on.
"""

import re

import gateway
import harness
import rdp
from harness import NotYet, expect, expect_eq

OUTPUT = (1024, 768)


def main():
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\noutput = %dx%d\n" % (
        gateway.XTERM_COMMAND, OUTPUT[0], OUTPUT[1]))
    try:
        front = gateway.Front(host, rdp=True)
        password = rdp.write_secret(front, host.passwords["alice"])
        client = rdp.RdpClient(front, front.rdp_port, user=host.users["alice"],
                               password_file=password, size=OUTPUT)
        width, height, _ = client.wait_connected(timeout=40)
        expect_eq((width, height), OUTPUT, "the desktop's size (her session's output)")
        expect(len(client.lines_since(0, "redirected")) == 1,
               "the client says it was redirected once: %r" % client.lines_since(0, "redirected"))
        box = gateway.wait_her_xterm(client)

        row = host.her_session("alice")
        pid = row["pid"]
        log_text = host.session_log(row)
        expect(("logged on as \"%s\" through oriel-gateway" % host.users["alice"]) in log_text,
               "her session logs the gateway's client: %s" % log_text[-2000:])
        # At her window's place in her session: the session logs where it mapped it.
        m = re.search(r"Window mapped: (\d+)x(\d+) at (\d+),(\d+)", log_text)
        expect(m is not None, "her session logged its window")
        expect_eq((box[0], box[1]), (int(m.group(3)), int(m.group(4))),
                  "the xterm's place in the decoded desktop (where her session put it)")

        # The connection is her oriel's: the gateway holds none on its RDP port.
        on_port = front.wait_for(
            lambda: gateway.established_on(front.rdp_port) or NotYet("no connection"),
            what="the client's connection")
        expect(not (on_port & gateway.socket_inodes(front.proc.pid)),
               "the gateway holds the client's connection")
        expect(on_port & gateway.socket_inodes(pid), "her oriel holds the client's connection")
        expect(host.passwords["alice"] not in front.log(), "her password is in the log")

        # Over VNC: the same session; the RDP client stays.
        v = front.viewer("alice", name="vnc")
        v.wait_connected()
        v.wait_framebuffer(gateway.xterm_box, timeout=30, what="her xterm over VNC")
        rows = host.sessions()
        expect_eq([(r["pid"], r["clients"]) for r in rows], [(pid, "2")],
                  "--list with VNC and RDP: her one session, two clients")
        expect(client.alive(), "the RDP client is still connected")
        v.send("quit")
        v.wait(20)
        client.kill()
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
