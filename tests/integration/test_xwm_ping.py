#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""_NET_WM_PING: an unresponsive client is marked and can be killed.

oriel-test-xclient lists _NET_WM_PING and sets _NET_WM_PID, and answers
pings. Stopped with SIGSTOP, it answers nothing: `orielctl close` sends
WM_DELETE_WINDOW and a ping; when the ping times out (wlroots: 10 s) the
title reads "... (not responding)" in orielctl and the title bar, and a
second close kills the process through _NET_WM_PID. A client that answers
keeps its title and closes normally.
"""
import os
import signal

import harness
from harness import Session, expect, expect_eq
from xclient import spawn

def main():
    with Session(outputs=["1024x768"]) as s:
        alive, _ = spawn(s, "lively", "--ping", "--pid")
        win = s.wait_window(title="lively", kind="x11")
        s.orielctl("close", win["id"], json=False)
        alive.wait()
        expect("delete-window" in alive.log(), alive.log())

        hung, hung_wid = spawn(s, "hung", "--ping", "--pid", "--size", "300x200")
        expect_eq(s.xprop(hung_wid, "_NET_WM_PID").split("=")[-1].strip(),
                  str(hung.pid), "_NET_WM_PID")
        win = s.wait_window(title="hung", kind="x11")
        os.kill(hung.pid, signal.SIGSTOP)
        s.orielctl("close", win["id"], json=False)
        win = s.wait_window(title="hung (not responding)", timeout=30,
                            what="the title marked after the ping timed out")
        expect(hung.alive(), "the stopped client died before the second close")
        s.orielctl("close", win["id"], json=False)
        rc = hung.wait()
        expect_eq(rc, -signal.SIGKILL, "exit status of the unresponsive client")
        s.wait_no_window(title="hung (not responding)")


if __name__ == "__main__":
    harness.run(main)
