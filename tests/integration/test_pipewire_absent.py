#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Without a PipeWire daemon in the session, `orielctl cast start` fails
with a sentence, and oriel's log says what to start instead of only
libpipewire's "Host is down"."""
import harness
from harness import Session, expect


def main():
    with Session(xwayland="off") as s:
        res = s.orielctl_raw("cast", "start", "--output", s.output()["name"])
        expect(res.returncode != 0, "cast start without PipeWire succeeded: %r" % res.stdout)
        expect("PipeWire is not available" in res.stderr,
               "orielctl said: %r" % res.stderr)
        s.wait_for(lambda: "start pipewire and wireplumber" in s.log_text(),
                   what="oriel's log to say what to start")


if __name__ == "__main__":
    harness.run(main)
