#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Without an Xwayland binary (hidden in a private mount namespace), oriel
with X11 support stops and names the package to install, with lazy (the
default) and eager Xwayland."""
import subprocess

import harness
import startup
from harness import Skip

XWAYLAND = "/usr/bin/Xwayland"


def main():
    unshare = harness.tool("unshare")
    probe = subprocess.run([unshare, "-m", "true"], stderr=subprocess.PIPE)
    if probe.returncode != 0:
        raise Skip("no mount namespaces here: %s" % probe.stderr.decode().strip())
    # /dev/null over the binary: it is there, but cannot be run.
    hide = [unshare, "-m", "sh", "-c",
            'mount --bind /dev/null "$0" && exec "$@"', XWAYLAND]
    for mode in ([], ["--xwayland", "eager"]):
        failure = startup.start_failing(
            ["--backend", "headless", "--renderer", "pixman"] + mode, wrapper=hide)
        startup.expect_message(failure, "Xwayland not found",
                               "install the xwayland package or use --xwayland off")


if __name__ == "__main__":
    harness.run(main)
