#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The session ends with its command's exit status.

`oriel ... -- sh -c 'exit 7'` exits 7 and `oriel ... -- true` exits 0, on
their own (no signal), and leave no wayland socket behind.
"""
import os
import re

import harness
from harness import Session, expect, expect_eq


def main():
    for command, status in ((["sh", "-c", "exit 7"], 7), (["true"], 0)):
        with Session(command=command, wait_ready=False) as s:
            got = s.wait_exit(timeout=30)
            expect_eq(got, status, "oriel's exit status for -- %s" % " ".join(command))
            left = [e for e in os.listdir(s.runtime_dir)
                    if re.fullmatch(r"wayland-\d+(\.lock)?", e)]
            expect(not left, "oriel left %r in its runtime dir after the session "
                   "command exited" % left)


if __name__ == "__main__":
    harness.run(main)
