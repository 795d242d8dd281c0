#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wlr-randr sees and changes outputs only when the policy names it.

Without a [privileged] output-management entry wlr-randr finds no output
manager.  With one (from the config file) it lists each headless output
at its size and position, sets any size on a headless output, moves an
output, and `orielctl outputs` shows the result.  A disabling request is
refused and changes nothing.
"""
import tempfile
from pathlib import Path

import harness
from harness import NotYet, Session, expect, expect_eq, tool

REFUSAL = "compositor doesn't support wlr-output-management-unstable-v1"


def randr_heads(s, randr):
    """{name: {"current": "WxH", "position": "X,Y", "enabled": ...}}."""
    res = s.run_tool([randr])
    heads = {}
    head = None
    for line in res.stdout.splitlines():
        if line and not line.startswith(" "):
            head = heads.setdefault(line.split()[0], {})
        elif head is not None:
            text = line.strip()
            if text.endswith("(current)"):
                head["current"] = text.split()[0]
            elif text.startswith("Position:"):
                head["position"] = text.split()[1]
            elif text.startswith("Enabled:"):
                head["enabled"] = text.split()[1]
    return heads


def wait_output(s, name, want, what):
    def check():
        o = s.output(name)
        got = (o["x"], o["y"], o["width"], o["height"])
        if got != want:
            raise NotYet("orielctl outputs: %r" % (got,))
        return o
    return s.wait_for(check, what=what)


def main():
    randr = tool("wlr-randr")
    expect_eq(randr, "/usr/bin/wlr-randr", "wlr-randr's path, as the policy names it")

    with Session(outputs=["640x480"]) as s:
        res = s.run_tool([randr], check=False)
        expect(res.returncode != 0, "wlr-randr succeeded without permission")
        expect(REFUSAL in res.stderr, "wlr-randr's message: %r" % res.stderr)
        size = s.output()
        expect_eq((size["width"], size["height"]), (640, 480), "output untouched")

    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "oriel.ini"
        config.write_text("[privileged]\noutput-management = %s\n" % randr)
        with Session(outputs=["640x480", "800x600"], config=config) as s:
            outs = s.outputs()
            expect_eq(len(outs), 2, "outputs")
            first, second = outs[0]["name"], outs[1]["name"]
            heads = randr_heads(s, randr)
            expect_eq(sorted(heads), sorted([first, second]), "heads wlr-randr lists")
            expect_eq(heads[first].get("current"), "640x480", "first head's mode")
            expect_eq(heads[second].get("current"), "800x600", "second head's mode")
            expect_eq(heads[second].get("position"),
                      "%d,%d" % (outs[1]["x"], outs[1]["y"]), "second head's position")

            s.run_tool([randr, "--output", first, "--custom-mode", "1024x768"])
            wait_output(s, first, (0, 0, 1024, 768), "the first output at 1024x768")
            expect_eq(randr_heads(s, randr)[first].get("current"), "1024x768",
                      "wlr-randr's view of the new size")

            s.run_tool([randr, "--output", second, "--pos", "1500,100"])
            wait_output(s, second, (1500, 100, 800, 600), "the second output moved")
            expect_eq(randr_heads(s, randr)[second].get("position"), "1500,100",
                      "wlr-randr's view of the new position")

            res = s.run_tool([randr, "--output", second, "--off"], check=False)
            expect(res.returncode != 0, "disabling an output was accepted")
            expect_eq(s.output_rect(second), (1500, 100, 800, 600),
                      "the refused configuration changed the output")
            expect_eq(randr_heads(s, randr)[second].get("enabled"), "yes",
                      "wlr-randr's view after the refusal")


if __name__ == "__main__":
    harness.run(main)
