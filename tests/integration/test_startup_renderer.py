#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--renderer gles2 on a machine without a GPU stops oriel with a sentence
that points at pixman, instead of a crash."""
import glob

import harness
import startup
from harness import Skip


def main():
    if glob.glob("/dev/dri/*"):
        raise Skip("this machine has a GPU node; gles2 may start")
    failure = startup.start_failing(["--backend", "headless", "--renderer", "gles2"])
    startup.expect_message(failure, "--renderer gles2", "use --renderer pixman")


if __name__ == "__main__":
    harness.run(main)
