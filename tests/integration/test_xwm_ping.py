#!/usr/bin/env python3
"""_NET_WM_PING: an unresponsive client is marked and can be killed.

oriel-test-xclient lists _NET_WM_PING and sets _NET_WM_PID, and answers
pings. Stopped with SIGSTOP, it answers nothing: `orielctl close` sends
WM_DELETE_WINDOW and a ping; when the ping times out (wlroots: 10 s) the
title reads "... (not responding)" in orielctl and the title bar, and a
second close kills the process through _NET_WM_PID. A client that answers
keeps its title and closes normally.
"""
import os
import re
import signal
from pathlib import Path

import harness
from harness import NotYet, Session, expect, expect_eq, exe, tool

def xclient_path():
    if os.environ.get("ORIEL_TEST_XCLIENT"):
        return exe("ORIEL_TEST_XCLIENT")
    build = Path(os.environ.get("ORIEL_BUILD_DIR", harness.REPO / "build"))
    path = build / "tests/clients/oriel-test-xclient"
    expect(path.is_file(), "set ORIEL_TEST_XCLIENT (no %s)" % path)
    return str(path)


def spawn(s, title, *args):
    c = s.spawn_x([xclient_path(), "--title", title] + [str(a) for a in args],
                  name="xclient-" + title)
    def wid():
        m = re.search(r"^window (0x[0-9a-f]+)$", c.log(), re.M)
        if not m:
            raise NotYet("no window line yet")
        return m.group(1)
    return c, s.wait_for(wid, what="%s's window id" % title)


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
