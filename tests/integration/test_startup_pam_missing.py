#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A PAM service with no file would fall back to Debian's "other" rules,
which may take any password: oriel refuses to start instead. With
--vnc-pam=SERVICE (and --rdp-pam=SERVICE, when built with RDP) naming a
service that /etc/pam.d does not have, it exits 1 before the session
command runs, with a line that names the service and its missing file,
and leaves nothing behind."""

import secrets
import subprocess
from pathlib import Path

import harness
import startup
import vnc
from harness import expect


def main():
    service = "oriel-missing-" + secrets.token_hex(4)
    expect(not Path("/etc/pam.d", service).exists(), "/etc/pam.d/%s exists" % service)
    said = 'the PAM service "%s" has no file (/etc/pam.d/%s)' % (service, service)
    usage = subprocess.run([harness.exe("ORIEL"), "--help"], capture_output=True,
                           text=True, timeout=harness.T(10)).stdout
    fronts = [("--vnc", "--vnc-pam=")]
    if "--rdp-pam" in usage:
        fronts.append(("--rdp", "--rdp-pam="))
    for listen, pam in fronts:
        failure = startup.start_failing([
            "--backend", "headless", "--renderer", "pixman",
            listen, "127.0.0.1:%d" % vnc.free_port(), pam + service])
        expect(failure.status == 1, "%s%s: exit status %d" % (pam, service, failure.status))
        expect(said in failure.stderr, "%s%s: stderr does not say %r:\n%s" % (
            pam, service, said, failure.stderr[-2000:]))


if __name__ == "__main__":
    harness.run(main)
