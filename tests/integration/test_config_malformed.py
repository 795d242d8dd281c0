#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A malformed config file is refused before anything starts.

oriel exits non-zero on its own, its stderr names the file and the line
("FILE:LINE: problem"), it created no wayland socket, and the session
command never ran.
"""
import os
import re
import tempfile

import harness
from harness import Session, expect

CONFIGS = [
    # (text, bad line number)
    ("# oriel test configuration\n"
     "[session]\n"
     "mode = desktop\n"
     "xwayland = sometimes\n", 4),
    ("[session]\n"
     "mode = desktop\n"
     "\n"
     "[keyboard]\n"
     "layout = us\n"
     "this line is not a setting\n", 6),
    ("[privileged]\n"
     "screencopy = /usr/bin/grim\n"
     "virtual-input = wayvnc\n", 3),
]


def main():
    confdir = tempfile.mkdtemp(prefix="oriel-config-")
    try:
        for i, (text, line) in enumerate(CONFIGS):
            path = os.path.join(confdir, "bad-%d.ini" % i)
            with open(path, "w") as f:
                f.write(text)
            marker = os.path.join(confdir, "session-ran-%d" % i)
            with Session(config=path, command=["touch", marker],
                         wait_ready=False) as s:
                status = s.wait_exit(timeout=15)
                log = s.log_text()
                expect(status != 0, "oriel accepted the bad config (exit 0)")
                expect(status > 0, "oriel died by signal %d on a bad config" % -status)
                where = "%s:%d:" % (path, line)
                expect(where in log, "stderr does not name %r; it says:\n%s" % (
                    where, log[-2000:]))
                sockets = [e for e in os.listdir(s.runtime_dir)
                           if re.fullmatch(r"wayland-\d+(\.lock)?", e)]
                expect(not sockets, "a wayland socket was created: %r" % sockets)
                expect(not os.path.exists(marker), "the session command ran")
    finally:
        for name in os.listdir(confdir):
            os.unlink(os.path.join(confdir, name))
        os.rmdir(confdir)


if __name__ == "__main__":
    harness.run(main)
