#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""xfreerdp with no user name and no password, in an Xvfb of the test's
own, gets oriel-gateway's logon screen:

- its window shows the screen (its background, its panel) and the
  gateway logs why;
- xdotool types alice's user name and password into it: she is
  redirected into her own session, whose xterm the window then shows
  (the same oriel pid as her other logins); the 120 keys typed and erased
  before leave the gateway's worker no bigger (each redraws the panel);
- on a second logon screen, wrong passwords are refused on the screen
  (its message line shows), counted as failed logins, and after a few the
  address must wait: then even her right password is refused there.
"""

import getpass
import glob
import os

import gateway
import harness
import rdp
from harness import NotYet, TestFailure, expect, expect_eq, log, tool

OUTPUT = (1024, 768)
SCREEN_BG = (0x1f, 0x2a, 0x38)
PANEL = (0x2f, 0x3f, 0x52)
MESSAGE = (0xff, 0xc8, 0x57)


def count_colour(image, box, colour, tolerance=8):
    x0, y0, w, h = box
    n = 0
    for y in range(y0, y0 + h, 2):
        for x in range(x0, x0 + w, 2):
            p = image.pixel(x, y)
            n += all(abs(p[c] - colour[c]) <= tolerance for c in range(3))
    return n * 4


def wait_logon_screen(front, xvfb, client):
    def shown():
        if not client.alive():
            raise TestFailure("xfreerdp exited (%s):\n%s" % (
                client.proc.returncode, client.log()[-3000:]))
        x, y, w, h, wid = client.window()
        image = xvfb.screen()
        bg = count_colour(image, (x, y, w, h), SCREEN_BG)
        panel = count_colour(image, (x, y, w, h), PANEL)
        if bg < w * h // 2 or panel < 20000:
            raise NotYet("%d pixels of the logon screen's background, %d of its panel" % (
                bg, panel))
        return x, y, w, h, wid
    return front.wait_for(shown, 60, "xfreerdp's window to show the logon screen")


def worker_rss_kib(front):
    """The resident size of the gateway's worker: its child that runs as no root."""
    for path in glob.glob("/proc/[0-9]*/status"):
        try:
            with open(path) as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            continue
        if (int(fields["PPid"]) == front.proc.pid and fields["Uid"].split()[0] != "0" and
                "VmRSS" in fields):
            return int(fields["VmRSS"].split()[0])
    raise TestFailure("no worker of the gateway's found")


def without_asan_quarantine():
    """ASan holds freed memory back for 256 MB before reusing it, which a resident
    size would count as growth: under ASan the gateway reuses it at once."""
    options = os.environ.get("ASAN_OPTIONS")
    if options is None:
        return {}
    return {"ASAN_OPTIONS": options + ":quarantine_size_mb=0:thread_local_quarantine_size_kb=0"}


def type_into(xvfb, window, *steps):
    """Focuses xfreerdp's window and types: str steps as text, ("key", K) as keys."""
    x, y, w, h, wid = window
    xvfb.xdotool("windowfocus", "--sync", wid)
    xvfb.xdotool("mousemove", x + w // 2, y + h // 2)
    for step in steps:
        if isinstance(step, tuple):
            xvfb.xdotool("key", "--delay", "60", *step[1].split())
        else:
            xvfb.xdotool("type", "--delay", "60", step)


def main():
    tool("xfreerdp")
    tool("Xvfb")
    tool("xdotool")
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\noutput = %dx%d\n" % (
        gateway.XTERM_COMMAND, OUTPUT[0], OUTPUT[1]))
    xvfb = None
    try:
        front = gateway.Front(host, rdp=True, env=without_asan_quarantine())
        xvfb = rdp.Xvfb(front, size=(OUTPUT[0] + 200, OUTPUT[1] + 200))
        alice, password = host.users["alice"], host.passwords["alice"]

        client = rdp.XFreeRDP(front, xvfb, front.rdp_port, None, None,
                              extra=["/size:%dx%d" % OUTPUT])
        window = wait_logon_screen(front, xvfb, client)
        expect("127.0.0.1 sent no password: it gets the logon screen" in front.log(),
               "the gateway logs the logon screen")
        rss_before = worker_rss_kib(front)
        # Every key redraws the panel and sends it: 60 typed, 60 erased.
        type_into(xvfb, window, "x" * 60, ("key", " ".join(["BackSpace"] * 60)))
        # xfreerdp sent the local login name: the screen shows it, the password field waits.
        type_into(xvfb, window, ("key", "Tab"), ("key", " ".join(["BackSpace"] * len(
            getpass.getuser()))), alice, ("key", "Return"), password, ("key", "Return"))

        def shows_xterm():
            if not client.alive():
                raise TestFailure("xfreerdp exited (%s):\n%s" % (
                    client.proc.returncode, client.log()[-3000:]))
            return gateway.xterm_box(xvfb.screen())
        front.wait_for(shows_xterm, 60, "xfreerdp's window to show her xterm")
        grown = worker_rss_kib(front) - rss_before
        log("the worker grew by %d KiB over 120 redraws of the panel and her login" % grown)
        expect(grown < 8192, "the worker grew by %d KiB at the logon screen" % grown)
        expect('RDP: "%s" logged in from 127.0.0.1' % alice in front.log(),
               "the gateway logs her login")
        expect('RDP: "%s" from 127.0.0.1 went to its session' % alice in front.log(),
               "the gateway logs her hand-over")
        pid = host.her_session("alice")["pid"]
        expect(password not in front.log(), "her password is in the gateway's log")
        client.close()

        # Over VNC: the same session.
        v = front.viewer("alice", name="vnc")
        v.wait_connected()
        v.wait_framebuffer(gateway.xterm_box, timeout=30, what="her xterm over VNC")
        expect_eq(host.her_session("alice")["pid"], pid, "her session's pid over VNC")
        v.send("quit")
        v.wait(20)

        # Wrong passwords: refused on the screen, counted, then the address waits.
        client = rdp.XFreeRDP(front, xvfb, front.rdp_port, None, None,
                              extra=["/size:%dx%d" % OUTPUT], name="xfreerdp-wrong")
        window = wait_logon_screen(front, xvfb, client)
        failed = 'failed login as "%s" from 127.0.0.1' % alice
        type_into(xvfb, window, ("key", "Tab"), ("key", " ".join(["BackSpace"] * len(
            getpass.getuser()))), alice, ("key", "Return"), "not-" + password, ("key", "Return"))
        front.wait_for(lambda: front.log().count(failed) == 1 or NotYet("no failed login"),
                       what="the gateway to log the failed login")
        x, y, w, h, _ = window
        front.wait_for(lambda: count_colour(xvfb.screen(), (x, y, w, h), MESSAGE, 40) > 40 or
                       NotYet("no message on the logon screen"),
                       what="the logon screen's message line")
        for n in range(2, 4):
            type_into(xvfb, window, "wrong%d" % n, ("key", "Return"))
            front.wait_for(lambda: front.log().count(failed) == n or NotYet("no failed login"),
                           what="failed login %d" % n)
        type_into(xvfb, window, password, ("key", "Return"))
        front.wait_for(lambda: "127.0.0.1 must wait before logging in again" in front.log() or
                       NotYet("no must-wait line"), what="the address to be throttled")
        expect(client.alive(), "xfreerdp is still at the logon screen")
        expect(not front.log().count('"%s" from 127.0.0.1 went to its session' % alice) > 1,
               "her right password went through while the address must wait")
        wait_logon_screen(front, xvfb, client)
        client.close()
        log("the logon screen refused wrong passwords, then throttled the address")
    finally:
        if xvfb:
            xvfb.close()
        host.close()


if __name__ == "__main__":
    harness.run(main)
