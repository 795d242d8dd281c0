#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
The files installed next to the programs: the session entry runs
oriel-session, which runs ~/.config/oriel/session or an xterm; the D-Bus
service, the systemd user unit and the .portal file agree on the bus name;
oriel-portals.conf takes the portals oriel.portal offers from oriel.
"""

import argparse
import configparser
import os
import subprocess
import sys
import tempfile

failures = []


def check(ok, message):
    if not ok:
        failures.append(message)
        print("FAIL: " + message, file=sys.stderr)


def ini(path):
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str
    with open(path, encoding="utf-8") as f:
        parser.read_file(f)
    return parser


def run_session(script, home):
    """Runs the session script with oriel replaced by a stub that prints its
    arguments, one a line."""
    env = {"HOME": home, "PATH": "/usr/bin:/bin"}
    result = subprocess.run(["/bin/sh", script], env=env, capture_output=True,
                            text=True, timeout=30)
    check(result.returncode == 0, "oriel-session exited %d: %s" %
          (result.returncode, result.stderr))
    return result.stdout.splitlines()


def check_session(args):
    desktop = ini(os.path.join(args.build_root, "compositor", "oriel.desktop"))
    entry = desktop["Desktop Entry"]
    check(entry.get("Type") == "Application", "oriel.desktop: Type is not Application")
    check(entry.get("DesktopNames") == "oriel", "oriel.desktop: DesktopNames is not oriel")
    check(entry.get("Exec") == os.path.join(args.libexecdir, "oriel-session"),
          "oriel.desktop: Exec is %s" % entry.get("Exec"))

    built = os.path.join(args.build_root, "compositor", "oriel-session")
    with open(built, encoding="utf-8") as f:
        text = f.read()
    oriel = os.path.join(args.bindir, "oriel")
    check(oriel in text, "oriel-session does not run %s" % oriel)
    with tempfile.TemporaryDirectory() as tmp:
        fake_bin = os.path.join(tmp, "bin")
        os.mkdir(fake_bin)
        stub = os.path.join(fake_bin, "oriel")
        with open(stub, "w") as f:
            f.write('#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n')
        os.chmod(stub, 0o755)
        script = os.path.join(tmp, "oriel-session")
        with open(script, "w") as f:
            f.write(text.replace(oriel, stub))
        home = os.path.join(tmp, "home")
        os.makedirs(os.path.join(home, ".config", "oriel"))

        check(run_session(script, home) == ["--", "xterm"],
              "without ~/.config/oriel/session, oriel-session does not run xterm")

        session = os.path.join(home, ".config", "oriel", "session")
        with open(session, "w") as f:
            f.write("#!/bin/sh\nexec xclock\n")
        check(run_session(script, home) == ["--", "/bin/sh", session],
              "a non-executable session file is not run with /bin/sh")
        os.chmod(session, 0o755)
        check(run_session(script, home) == ["--", session],
              "an executable session file is not run")


def check_portal(args):
    portal_dir = os.path.join(args.source_root, "portal")
    build_dir = os.path.join(args.build_root, "portal")
    portal = ini(os.path.join(portal_dir, "oriel.portal"))["portal"]
    name = portal["DBusName"]
    check(portal.get("UseIn") == "oriel", "oriel.portal: UseIn is not oriel")

    service = ini(os.path.join(build_dir, name + ".service"))["D-BUS Service"]
    check(service.get("Name") == name, "the D-Bus service file names %s" %
          service.get("Name"))
    exe = os.path.join(args.libexecdir, "xdg-desktop-portal-oriel")
    check(service.get("Exec") == exe, "the D-Bus service file runs %s" %
          service.get("Exec"))
    unit_name = service.get("SystemdService")
    check(unit_name == "xdg-desktop-portal-oriel.service",
          "the D-Bus service file's SystemdService is %s" % unit_name)

    unit = ini(os.path.join(build_dir, "xdg-desktop-portal-oriel.service"))
    check(unit["Service"].get("Type") == "dbus", "the unit is not Type=dbus")
    check(unit["Service"].get("BusName") == name, "the unit's BusName is %s" %
          unit["Service"].get("BusName"))
    check(unit["Service"].get("ExecStart") == exe, "the unit runs %s" %
          unit["Service"].get("ExecStart"))

    conf = ini(os.path.join(portal_dir, "oriel-portals.conf"))["preferred"]
    offered = [i for i in portal["Interfaces"].split(";") if i]
    for interface in ("org.freedesktop.impl.portal.ScreenCast",
                      "org.freedesktop.impl.portal.Screenshot",
                      "org.freedesktop.impl.portal.RemoteDesktop"):
        check(interface in offered, "oriel.portal does not offer %s" % interface)
        check(conf.get(interface) == "oriel",
              "oriel-portals.conf does not take %s from oriel" % interface)
    check(conf.get("default") == "gtk", "oriel-portals.conf's default is not gtk")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--build-root", required=True)
    parser.add_argument("--bindir", required=True)
    parser.add_argument("--libexecdir", required=True)
    parser.add_argument("--portal", action="store_true")
    args = parser.parse_args()
    check_session(args)
    if args.portal:
        check_portal(args)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
