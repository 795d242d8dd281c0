#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Command-line mistakes get one line each: a bad value shows the form
expected (--output 12x), an unknown option or a missing value points at
--help instead of printing it; oriel starts nothing for them.
orielctl knows -v and --version, and its help files each command under
its own heading."""
import subprocess

import harness
from harness import expect, expect_eq


def run(exe, *args):
    return subprocess.run([exe] + list(args), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=harness.T(10))


def one_line(res, what, *parts):
    expect(res.returncode not in (0, None) and res.returncode > 0,
           "%s: exit status %d" % (what, res.returncode))
    lines = [l for l in res.stderr.splitlines() if l.strip()]
    expect_eq(len(lines), 1, "%s: lines on stderr (%r)" % (what, res.stderr[:300]))
    for part in parts:
        expect(part in lines[0], "%s: %r does not say %r" % (what, lines[0], part))


def main():
    oriel = harness.exe("ORIEL")
    one_line(run(oriel, "--output", "12x"), "--output 12x",
             '"12x"', "WIDTHxHEIGHT", "1920x1080@60")
    one_line(run(oriel, "--backend", "vulkan"), "--backend vulkan",
             "one of auto, headless, drm, wayland, x11")
    one_line(run(oriel, "--frobnicate"), "--frobnicate",
             "unknown option --frobnicate", "oriel --help")
    one_line(run(oriel, "-q"), "-q", "unknown option -q", "oriel --help")
    one_line(run(oriel, "--output"), "--output without a value",
             "--output needs a value", "oriel --help")

    orielctl = harness.exe("ORIELCTL")
    for flag in ("-v", "--version"):
        res = run(orielctl, flag)
        expect_eq(res.returncode, 0, "orielctl %s exit status" % flag)
        expect(res.stdout.startswith("orielctl "), "orielctl %s printed %r" % (
            flag, res.stdout))
    help_text = run(orielctl, "--help").stdout
    sections = {}
    heading = None
    for line in help_text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            heading = line
        elif line.startswith("  ") and heading and line.strip():
            word = line.split()[0]
            sections.setdefault(word, heading)
    for command, wanted in (("cast", "Casts"), ("vnc", "VNC"), ("grants", "grants"),
                            ("revoke", "grants"), ("screenshot", "Screenshots")):
        expect(command in sections, "orielctl --help lists no %s" % command)
        expect(wanted in sections[command], "orielctl --help files %s under %r" % (
            command, sections[command]))


if __name__ == "__main__":
    harness.run(main)
