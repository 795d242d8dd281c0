#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Keys typed right after an RDP logon all arrive, in order, on a busy machine.

Two busy loops run beside the session (started here, killed at the end),
so that Xwayland, oriel and the client are slow and their work
interleaves as it does on a loaded 2-core machine. An xterm's shell
reads lines and appends each to a file. Round after round, a fresh
oriel-test-rdpclient logs on under the us layout and, the moment it is
connected, types a line: "Gr" (as Unicode events in one round, as
scancodes with Shift in the next), then a character the us keymap lacks
(a different one each round, so oriel binds it to a spare keycode and the
keymap changes right behind the first keys), then more, then Return.
Every line must arrive whole: no key lost, none out of order.

A last round holds Xwayland still (SIGSTOP) while the client types, as
a loaded machine may for a second, until oriel has had to decide
whether to give the spare keycodes back: Xwayland applies a keymap the
moment it reads it but the keys read with it only after, so a keymap
given back before it read the keys would make the spare ones type
nothing. Then Xwayland goes on, and the line must arrive whole.
"""
import os
import signal
import subprocess
import tempfile
from pathlib import Path

import harness
import rdp
from harness import NotYet, Session, expect_eq

PASSWORD = "busy-Pass-7310"
ROUNDS = 6
# Characters that the us keymap lacks, one per round: each needs a spare keycode.
SPARE = "\u00fc\u00df\u00f1\u0161\u00e5\u00f8\u0142\u00e6"
# Scancode set 1: Shift held around G, then r.
SCANCODE_GR = "2a+ 22 2a- 13"


def busy_loops(n):
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"], start_new_session=True)
            for _ in range(n)]


def stop(loops):
    for p in loops:
        try:
            p.send_signal(signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()


def lines_xterm(s):
    """An xterm whose shell appends every line it reads to a file."""
    import shlex
    out = s.tmp / "typed-busy.txt"
    script = 'while IFS= read -r l; do printf "%%s\\n" "$l" >> %s; done' % shlex.quote(
        str(out))
    xterm = s.spawn_x([harness.tool("xterm"), "-u8", "-geometry", "80x10+40+60",
                       "-title", "rdp busy", "-e", "sh", "-c", script])
    s.wait_window(app_id="XTerm", kind="x11", title="rdp busy",
                  where=lambda w: w["width"] > 0 and w["height"] > 0)
    return xterm, out


def wait_lines(s, xterm, out, n):
    def written():
        if not xterm.alive():
            raise harness.TestFailure("xterm exited")
        text = out.read_text(encoding="utf-8", errors="replace") if out.exists() else ""
        lines = text.splitlines()
        if len(lines) < n:
            raise NotYet("%d of %d lines written" % (len(lines), n))
        return lines
    return s.wait_for(written, what="xterm to write line %d" % n)


def main():
    loops = busy_loops(2)
    try:
        typing()
    finally:
        stop(loops)


def typing():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-busy-") as d:
        d = Path(d)
        config, port = rdp.keyboard_config(d, "us", "busy", PASSWORD)
        with Session(outputs=["1024x768"], config=config) as s:
            xterm, out = lines_xterm(s)
            rdp.wait_listening(s, port)
            s.wait_x_focus(s.wait_x_window("XTerm"))
            secret = rdp.write_secret(s, PASSWORD)
            expected = []
            for i in range(ROUNDS):
                rest = SPARE[i % len(SPARE)] + "e \u20ac @|"
                client = rdp.RdpClient(s, port, name="busy-%d" % i, user="busy",
                                       password_file=secret, size=(1024, 768))
                client.wait_connected()
                if i % 2 == 0:
                    client.send("unicode Gr" + rest + "\\n")
                    how = "as Unicode events"
                else:
                    client.send("keys " + SCANCODE_GR)
                    client.send("unicode " + rest + "\\n")
                    how = "as scancodes, then Unicode events"
                expected.append("Gr" + rest)
                lines = wait_lines(s, xterm, out, i + 1)
                expect_eq(lines, expected, "the lines typed right after logon %d "
                          "(its first keys %s) beside two busy loops" % (i + 1, how))
                client.close()
            held_still(s, port, secret, xterm, out, expected)


def held_still(s, port, secret, xterm, out, expected):
    client = rdp.RdpClient(s, port, name="busy-held", user="busy", password_file=secret,
                           size=(1024, 768))
    client.wait_connected()
    xwayland = s.xwayland_pid()
    mark = len(s.log_text())
    line = "Gr\u0107\u0111e \u00f0"
    os.kill(xwayland, signal.SIGSTOP)
    try:
        client.send("unicode " + line + "\\n")

        def decided():
            log = s.log_text()[mark:]
            if ("Spare keycodes are free again" not in log and
                    "Keysyms stay on spare keycodes" not in log):
                raise NotYet("oriel has not looked at its spare keycodes again")
            return True
        s.wait_for(decided, what="oriel to keep or give back the spare keycodes")
    finally:
        os.kill(xwayland, signal.SIGCONT)
    expected.append(line)
    lines = wait_lines(s, xterm, out, len(expected))
    expect_eq(lines, expected, "the line typed while Xwayland was held still")
    client.close()


if __name__ == "__main__":
    harness.run(main)
