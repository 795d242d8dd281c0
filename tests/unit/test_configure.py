#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
tools/build and the prefix: configuring under /usr/local warns that
xdg-desktop-portal 1.16 will not find oriel.portal there; options given
to tools/build for an existing build folder reconfigure it (where a plain
meson setup would keep the old prefix); without options it leaves the
folder alone. tools/build runs with a ninja that builds nothing, so only
meson's configuration is exercised.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

WARNING = "where xdg-desktop-portal 1.16 does not look"
failed = 0


def check(ok, message):
    global failed
    if not ok:
        failed += 1
        print("FAIL: " + message, file=sys.stderr)


def prefix(build_dir):
    result = subprocess.run(["meson", "introspect", "--buildoptions", build_dir],
                            capture_output=True, text=True, check=True, timeout=60)
    return [o["value"] for o in json.loads(result.stdout) if o["name"] == "prefix"][0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-root", required=True)
    args = parser.parse_args()
    build = os.path.join(args.source_root, "tools", "build")
    with tempfile.TemporaryDirectory() as tmp:
        fake_bin = os.path.join(tmp, "bin")
        os.mkdir(fake_bin)
        # meson asks ninja its version and uses it for itself; tools/build's
        # "ninja -C DIR" builds nothing.
        with open(os.path.join(fake_bin, "ninja"), "w") as f:
            f.write('#!/bin/sh\n[ "${1:-}" = -C ] && exit 0\nexec %s "$@"\n' %
                    shutil.which("ninja"))
        os.chmod(os.path.join(fake_bin, "ninja"), 0o755)
        build_dir = os.path.join(tmp, "build")
        env = dict(os.environ, BUILD_DIR=build_dir,
                   PATH=fake_bin + ":" + os.environ.get("PATH", "/usr/bin:/bin"))

        def tools_build(*options):
            result = subprocess.run([build] + list(options), env=env, capture_output=True,
                                    text=True, timeout=300)
            check(result.returncode == 0, "tools/build %s exited %d:\n%s%s" % (
                " ".join(options), result.returncode, result.stdout, result.stderr))
            return result.stdout + result.stderr

        out = tools_build("--prefix=/usr/local", "-Dtests=disabled")
        check(WARNING in out, "no warning about oriel.portal under /usr/local")
        check("XDG_DESKTOP_PORTAL_DIR" in out, "the warning does not say what to do")
        check(prefix(build_dir) == "/usr/local", "the prefix is not /usr/local")

        # What tools/build avoids: a plain meson setup keeps the old prefix.
        plain = subprocess.run(["meson", "setup", build_dir, "--prefix=/usr"],
                               cwd=args.source_root, capture_output=True, text=True,
                               timeout=300)
        check("already configured" in plain.stdout + plain.stderr and
              prefix(build_dir) == "/usr/local",
              "meson setup on a configured folder no longer keeps its prefix; "
              "README.md's Install section says it does:\n" + plain.stdout + plain.stderr)

        out = tools_build("--prefix=/usr")
        check(prefix(build_dir) == "/usr", "tools/build --prefix=/usr did not change the prefix")
        check(WARNING not in out, "a warning about oriel.portal under /usr")

        out = tools_build()
        check(prefix(build_dir) == "/usr", "tools/build without options changed the prefix")
        check("Reconfiguring" not in out and "The Meson build system" not in out,
              "tools/build without options configured the folder again")
    print("%d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
