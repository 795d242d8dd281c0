#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The session ends with its command's exit status.

`oriel ... -- sh -c 'exit 7'` exits 7 and `oriel ... -- true` exits 0, on
their own (no signal), and leave no wayland socket behind. A headless
start logs no DRM error, with the pixman renderer named or chosen by auto
("drmGetDevices2 failed" is no error on a machine without DRM).
"""
import os
import re

import harness
from harness import Session, expect, expect_eq


def main():
    for command, status, args in ((["sh", "-c", "exit 7"], 7, []),
                                  (["true"], 0, ["--renderer", "auto"])):
        with Session(command=command, wait_ready=False, args=args) as s:
            got = s.wait_exit(timeout=30)
            expect_eq(got, status, "oriel's exit status for -- %s" % " ".join(command))
            left = [e for e in os.listdir(s.runtime_dir)
                    if re.fullmatch(r"wayland-\d+(\.lock)?", e)]
            expect(not left, "oriel left %r in its runtime dir after the session "
                   "command exited" % left)
            errors = [l for l in s.log_text().splitlines()
                      if "[ERROR]" in l and "drmGetDevices2" in l]
            expect(not errors, "a headless start %s logged %r" % (
                " ".join(args), errors[:3]))


if __name__ == "__main__":
    harness.run(main)
