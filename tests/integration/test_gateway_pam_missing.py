#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A PAM service with no file would fall back to Debian's "other" rules,
which may take any password: oriel-gateway refuses to start instead. With
--pam-service naming a service that /etc/pam.d does not have (and with
the config file's pam-service key), it exits 1 at once, serving VNC or
RDP, with a line that names the service and its missing file."""

import secrets
import tempfile
from pathlib import Path

import gateway
import harness
from harness import expect


def main():
    service = "oriel-missing-" + secrets.token_hex(4)
    expect(not Path("/etc/pam.d", service).exists(), "/etc/pam.d/%s exists" % service)
    said = 'the PAM service "%s" has no file (/etc/pam.d/%s)' % (service, service)
    with tempfile.TemporaryDirectory(prefix="oriel-gw-") as d:
        base = Path(d)
        ini = base / "gateway.ini"
        ini.write_text("[session]\ncommand = xterm\n")
        keyed = base / "keyed.ini"
        keyed.write_text("[session]\ncommand = xterm\n[login]\npam-service = %s\n" % service)
        common = ["--runtime-dir", str(base / "sessions"), "--oriel", harness.exe("ORIEL")]
        for front in ("--vnc", "--rdp"):
            port = gateway.vnc_free_port()
            for how, argv in (("--pam-service", ["--config", str(ini),
                                                 "--pam-service", service]),
                              ("the config's pam-service", ["--config", str(keyed)])):
                res = gateway.run([gateway.gateway_exe(), front, "127.0.0.1:%d" % port] +
                                  common + argv, check=False, timeout=30)
                what = "oriel-gateway %s with %s naming a missing service" % (front, how)
                expect(res.returncode == 1, "%s exited %d:\n%s" % (what, res.returncode,
                                                                   res.stderr[-2000:]))
                expect(said in res.stderr, "%s does not say %r:\n%s" % (
                    what, said, res.stderr[-2000:]))
        harness.log("oriel-gateway refuses a PAM service with no file, from the "
                    "command line and from its config")


if __name__ == "__main__":
    harness.run(main)
