#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An unresponsive X client is killed through its pid only if it runs on
this host (WM_CLIENT_MACHINE); one that says it runs elsewhere (an app
forwarded over ssh, whose pid here would be sshd's) is disconnected
instead (XKillClient), and no local process is killed.

Two oriel-test-xclients list _NET_WM_PING, one with WM_CLIENT_MACHINE set
to this host's name, one to another host's. Both are stopped (SIGSTOP);
`orielctl close` sends WM_DELETE_WINDOW and a ping, the pings time out
(wlroots: 10 s) and the titles read "(not responding)"; a second close
kills the local one (SIGKILL) and only disconnects the other: its window
goes, its process lives on (stopped).
"""
import os
import signal
import socket

import harness
from harness import Session, expect, expect_eq
from xclient import spawn


def main():
    with Session(outputs=["1024x768"]) as s:
        clients = {}
        for title, machine in (("local", socket.gethostname()),
                               ("remote", "elsewhere.invalid")):
            client, wid = spawn(s, title, "--ping", "--pid", "--size", "300x200",
                                "--client-machine", machine)
            expect(machine in s.xprop(wid, "WM_CLIENT_MACHINE"), "WM_CLIENT_MACHINE")
            clients[title] = client
            s.wait_window(title=title, kind="x11")
        for title, client in clients.items():
            os.kill(client.pid, signal.SIGSTOP)
            s.orielctl("close", s.window_by(title=title)["id"], json=False)
        for title in clients:
            s.wait_window(title=title + " (not responding)", timeout=30,
                          what="%s marked after its ping timed out" % title)

        s.orielctl("close", s.window_by(title="local (not responding)")["id"],
                   json=False)
        expect_eq(clients["local"].wait(), -signal.SIGKILL,
                  "exit status of the local unresponsive client")
        s.wait_no_window(title="local (not responding)")

        s.orielctl("close", s.window_by(title="remote (not responding)")["id"],
                   json=False)
        s.wait_no_window(title="remote (not responding)")
        expect(clients["remote"].alive(),
               "the client that runs elsewhere was killed through its pid")
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
