#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An RDP client that cannot follow a Server Redirection (the test client
clears REDIRECTION_SUPPORTED in its cluster data, as macOS's client
announces none) reaches alice's session through oriel-gateway's relay:

- it gets no redirection, yet decodes her session's xterm, and what it
  types lands in her session (her xterm's shell writes it to her file);
- the gateway logs the relay, her session logs the relayed client, and
  neither log holds her password;
- the relay is the gateway's unprivileged network side: the client's TCP
  connection is held by the worker (not root, not her oriel);
- a client that can follow the redirection, logging in meanwhile, is
  redirected into the same session (same oriel pid, two clients);
- such a client that sends no password gets the gateway's logon screen,
  types her password there (as Unicode keyboard events), and is relayed
  into her session all the same;
- with rdp-handover = redirect, the same client is redirected instead;
  with relay, a client that could follow one is relayed: the test client
  shows her xterm, and so does xfreerdp (in an Xvfb of the test's own)
  after its logon screen.
"""

import os

import gateway
import harness
import rdp
from harness import NotYet, TestFailure, expect, expect_eq, tool

OUTPUT = (1024, 768)
SCREEN_BG = (0x1f, 0x2a, 0x38)  # the logon screen's background
# Set 1 scancodes of "relayed" and Return, on a US layout.
RELAYED_KEYS = "13 12 26 1e 15 12 20 1c"


def worker_of(front):
    """The gateway's worker: its child run with --worker=."""
    for pid in harness.all_pids():
        try:
            with open("/proc/%d/stat" % pid) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if ppid == front.proc.pid and b"--worker=" in cmdline:
            return pid
    raise NotYet("no worker yet")


def typed(host):
    path = os.path.join(host.home("alice"), "typed.txt")
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def connect(front, host, password, *extra, name="rdpclient"):
    return rdp.RdpClient(front, front.rdp_port, user=host.users["alice"],
                         password_file=password, size=OUTPUT, extra=extra, name=name)


def logon_screen(image, box=None):
    """The logon screen shows in image (within box: x, y, w, h): its background's pixels."""
    x0, y0, w, h = box or (0, 0, image.width, image.height)
    n = sum(1 for y in range(y0, y0 + h, 4) for x in range(x0, x0 + w, 4)
            if all(abs(image.pixel(x, y)[c] - SCREEN_BG[c]) <= 8 for c in range(3)))
    if n * 16 < w * h // 2:
        raise NotYet("%d pixels of the logon screen's background" % (n * 16))
    return n


def main():
    tool("xfreerdp")
    tool("Xvfb")
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\noutput = %dx%d\n" % (
        gateway.XTERM_COMMAND, OUTPUT[0], OUTPUT[1]))
    try:
        front = gateway.Front(host, rdp=True)
        password = rdp.write_secret(front, host.passwords["alice"])
        client = connect(front, host, password, "--no-redirection")
        expect_eq(client.wait_connected(timeout=40)[:2], OUTPUT, "the desktop's size")
        expect_eq(client.lines_since(0, "redirected"), [], "redirections the client got")
        gateway.wait_her_xterm(client)
        front.wait_for(lambda: "is relayed to its session" in front.log() or
                       NotYet("no relay in the gateway's log"), what="the relay's log line")
        expect("127.0.0.1 does not say it can follow a redirection: it is relayed" in front.log(),
               "the gateway logs why it relays")

        row = host.her_session("alice")
        pid = row["pid"]
        log_text = host.session_log(row)
        expect("oriel-gateway relays" in log_text and
               ("logged on as \"%s\" through oriel-gateway" % host.users["alice"]) in log_text,
               "her session logs the relayed client: %s" % log_text[-2000:])

        client.send("keys " + RELAYED_KEYS)
        front.wait_for(lambda: "relayed\n" in typed(host) or NotYet(repr(typed(host))),
                       what="her xterm's shell to get the typed line")

        # The relay holds the connection: the worker, running unprivileged.
        worker = front.wait_for(lambda: worker_of(front), what="the worker")
        on_port = front.wait_for(
            lambda: gateway.established_on(front.rdp_port) or NotYet("no connection"),
            what="the client's connection")
        expect(on_port & gateway.socket_inodes(worker), "the worker holds the client's connection")
        expect(not (on_port & gateway.socket_inodes(pid)), "her oriel holds the client's connection")
        expect(gateway.proc_uid(worker) != 0, "the relaying worker runs as root")
        for text, what in ((front.log(), "the gateway's"), (host.session_log(row), "her session's")):
            expect(host.passwords["alice"] not in text, "her password is in %s log" % what)

        # A client that can follow a redirection: redirected, into the same session.
        second = connect(front, host, password)
        second.wait_connected(timeout=40)
        expect_eq(len(second.lines_since(0, "redirected")), 1, "the second client's redirections")
        gateway.wait_her_xterm(second)
        rows = host.sessions()
        expect_eq([(r["pid"], r["clients"]) for r in rows], [(pid, "2")],
                  "--list with a relayed and a redirected client: her one session")
        expect(client.alive(), "the relayed client is still connected")
        second.kill()
        client.kill()

        # No password either: the logon screen, then the relay.
        relayed = front.log().count("is relayed to its session")
        screen = connect(front, host, None, "--no-redirection", name="no-password")
        screen.wait_connected(timeout=40)
        screen.wait_framebuffer(logon_screen, timeout=30, what="the logon screen")
        screen.send("unicode %s\\n" % host.passwords["alice"])
        gateway.wait_her_xterm(screen)
        expect_eq(screen.lines_since(0, "redirected"), [], "redirections after the logon screen")
        expect_eq(front.log().count("is relayed to its session"), relayed + 1,
                  "relays after the logon screen")
        expect_eq(host.her_session("alice")["pid"], pid, "her session's pid after the logon screen")
        screen.kill()
        front.stop()

        # rdp-handover = redirect: the same client is redirected, and follows.
        front = gateway.Front(host, "--rdp-handover", "redirect", rdp=True)
        client = connect(front, host, password, "--no-redirection")
        client.wait_connected(timeout=40)
        expect_eq(len(client.lines_since(0, "redirected")), 1,
                  "redirections with rdp-handover = redirect")
        client.kill()
        front.stop()

        # rdp-handover = relay: a client that could follow one is relayed.
        front = gateway.Front(host, "--rdp-handover", "relay", rdp=True)
        client = connect(front, host, password)
        client.wait_connected(timeout=40)
        gateway.wait_her_xterm(client)
        expect_eq(client.lines_since(0, "redirected"), [], "redirections with rdp-handover = relay")
        expect_eq(host.her_session("alice")["pid"], pid, "her session's pid")
        client.kill()

        # xfreerdp with her name and no password: the logon screen, then the relay.
        xvfb = rdp.Xvfb(front, size=(OUTPUT[0] + 200, OUTPUT[1] + 200))
        relayed = front.log().count("is relayed to its session")
        xfreerdp = rdp.XFreeRDP(front, xvfb, front.rdp_port, host.users["alice"], None,
                                extra=["/size:%dx%d" % OUTPUT])
        x, y, w, h, wid = xfreerdp.window()
        front.wait_for(lambda: logon_screen(xvfb.screen(), (x, y, w, h)),
                       what="xfreerdp's window to show the logon screen")
        xvfb.xdotool("windowfocus", "--sync", wid)
        xvfb.xdotool("mousemove", "--sync", x + w // 2, y + h // 2)
        xvfb.xdotool("type", "--delay", "60", host.passwords["alice"])
        xvfb.xdotool("key", "Return")

        def shows_xterm():
            if not xfreerdp.alive():
                raise TestFailure("xfreerdp exited (%s):\n%s" % (
                    xfreerdp.proc.returncode, xfreerdp.log()[-3000:]))
            return gateway.xterm_box(xvfb.screen())
        front.wait_for(shows_xterm, 60, "xfreerdp's window to show her xterm")
        expect_eq(front.log().count("is relayed to its session"), relayed + 1,
                  "relays logged once xfreerdp shows her xterm")
        xfreerdp.close()
        xvfb.close()
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
