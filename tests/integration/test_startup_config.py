#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A config file with a bad line stops oriel before anything starts, and
the last line names the file and line and says to fix it."""
import os
import tempfile

import harness
import startup


def main():
    fd, path = tempfile.mkstemp(prefix="oriel-startup-", suffix=".ini")
    try:
        with os.fdopen(fd, "w") as f:
            f.write("[session]\nxwayland = sometimes\n")
        failure = startup.start_failing(["--backend", "headless", "--config", path])
        startup.expect_message(failure, "%s:2:" % path, "fix that line")
    finally:
        os.unlink(path)


if __name__ == "__main__":
    harness.run(main)
