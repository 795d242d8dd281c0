#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
The walls between the folders (DESIGN.md, "Rules for the dependencies
between folders"): every #include "..." of every .c and .h file, against
what its folder may include. An include that crosses a wall fails, unless
it is in EXCEPTIONS below; an exception no longer used fails too, so that
the list only shrinks.
"""

import argparse
import os
import re
import sys

# What each folder may include, besides itself and files at the top of the
# tree (oriel-config.h, the generated protocol headers). The longest folder
# that holds a file rules it: remote/vnc/ before remote/; and a folder
# allowed is that folder only, not its subfolders.
ALLOWED = {
    # What several programs link: nothing of the project.
    "common": [],
    # The core.
    "compositor": ["common"],
    # Xwayland knows views and the seat through compositor/ headers.
    "xwm": ["common", "compositor"],
    # The engine, with capture/pipewire/, knows the scene, outputs and views;
    # nothing of X.
    "capture": ["common", "compositor"],
    # What VNC and RDP share; a protocol's folder never includes the other's.
    "remote": ["common", "compositor", "capture"],
    "remote/vnc": ["common", "compositor", "capture", "remote"],
    "remote/rdp": ["common", "compositor", "capture", "remote"],
    # The D-Bus control API, on top of everything it controls; the remote
    # servers through their one interface (remote/server.h), never a
    # protocol's own folder.
    "control": ["common", "compositor", "xwm", "capture", "remote"],
    # Separate programs. The gateway logs people in with remote/'s account
    # checks, TLS and hand-over, and the RFB handshake of remote/vnc/; it
    # captures nothing and knows nothing of the compositor.
    "gateway": ["common", "remote", "remote/vnc"],
    # The portal only speaks D-Bus.
    "portal": ["common"],
    # orielctl reads the portal's grants.
    "tools": ["common", "portal"],
}

# Files with walls of their own. The list of the remote-access protocols
# (remote/server.h) is the one file of remote/ that names them, so that
# main.c and the control API do not.
FILE_ALLOWED = {
    "remote/remote_servers.c": ["common", "compositor", "remote/vnc", "remote/rdp"],
}

# Folders whose sources are not part of the programs' layers.
UNCHECKED = {"tests", "bench", "protocols", "debian"}

# Includes that cross a wall today: (file, included header, why). Remove an
# entry when its include goes; never add one for new code.
EXCEPTIONS = [
    # main.c wires the subsystems into the core: the remote servers through
    # their one interface (remote/server.h).
    ("compositor/main.c", "capture/virtual_input.h", "main.c wires the subsystems"),
    ("compositor/main.c", "remote/remote_servers.h", "main.c wires the subsystems"),
    ("compositor/main.c", "control/control.h", "main.c wires the subsystems"),
    ("compositor/main.c", "xwm/xwayland.h", "main.c wires the subsystems"),
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def is_build_dir(path):
    return os.path.exists(os.path.join(path, "meson-private")) or \
        os.path.exists(os.path.join(path, "build.ninja"))


def folder_of(path):
    """The folder of ALLOWED that rules a path (the longest that holds it)."""
    parts = path.split("/")[:-1]
    for n in range(len(parts), 0, -1):
        folder = "/".join(parts[:n])
        if folder in ALLOWED:
            return folder
    return None


def sources(root):
    """Every .c and .h file of the checked folders, as paths from root."""
    failures = []
    found = []
    for top in sorted(os.listdir(root)):
        top_path = os.path.join(root, top)
        if not os.path.isdir(top_path) or top.startswith(".") or \
                top in UNCHECKED or is_build_dir(top_path):
            continue
        for dirpath, dirnames, filenames in os.walk(top_path):
            dirnames[:] = [d for d in dirnames
                           if not is_build_dir(os.path.join(dirpath, d))]
            for name in filenames:
                if name.endswith((".c", ".h")):
                    found.append(os.path.relpath(os.path.join(dirpath, name), root))
        if top not in ALLOWED and any(p.startswith(top + "/") for p in found):
            failures.append("%s/ has C sources but no walls in this test" % top)
    return found, failures


def crossings(root, files):
    """(file, header) for every include that its folder may not make."""
    crossed = []
    for path in files:
        own = folder_of(path)
        allowed = FILE_ALLOWED.get(path, ALLOWED[own])
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        for header in INCLUDE.findall(text):
            if "/" not in header:
                continue  # oriel-config.h, protocol headers
            target = folder_of(header)
            if target is None:
                crossed.append((path, header))  # a folder with no walls
            elif target != own and target not in allowed:
                crossed.append((path, header))
    return crossed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-root", required=True)
    args = parser.parse_args()

    files, failures = sources(args.source_root)
    if len(files) < 100:
        failures.append("only %d source files found under %s" %
                        (len(files), args.source_root))
    crossed = crossings(args.source_root, files)
    allowed = {(path, header) for path, header, _ in EXCEPTIONS}
    for path, header in crossed:
        if (path, header) not in allowed:
            own = folder_of(path)
            failures.append('%s includes "%s": %s may include only %s' % (
                path, header, path if path in FILE_ALLOWED else own + "/",
                ", ".join(a + "/" for a in FILE_ALLOWED.get(path, ALLOWED[own])) or
                "itself"))
    for path, header, _ in EXCEPTIONS:
        if (path, header) not in crossed:
            failures.append('%s no longer includes "%s": remove it from '
                            "EXCEPTIONS" % (path, header))
    for message in failures:
        print("FAIL: " + message, file=sys.stderr)
    print("%d files, %d includes across walls, %d of them excepted" %
          (len(files), len(crossed), len(EXCEPTIONS)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
