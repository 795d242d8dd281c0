#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The app zoo, Java Swing: a JFrame with a menubar and a JDialog (see
zoo.run_app and tests/integration/zoo_apps/Zoo.java), as a person uses it:
- it maps with oriel's title bar and takes the focus on a click;
- its File menu, a heavyweight popup (an override-redirect X window),
  drops exactly where Swing placed it while the button is held on File
  (a plain click opens it too, but not every time on a busy machine:
  not understood yet, so not tested);
- the JDialog (owned by the frame, so transient) is titled and centred
  over the frame;
- the dialog's title bar close button closes it, and `wmctrl -c` the app
  (both through WM_DELETE_WINDOW; the app exits with status 0).
"""
import shutil
import subprocess

import harness
from harness import Session, Skip, TestFailure
import zoo


def main():
    javac, java = shutil.which("javac"), shutil.which("java")
    if not javac or not java:
        raise Skip("no JDK (javac and java)")
    with Session(outputs=["1024x768"]) as s:
        res = subprocess.run([javac, "-d", str(s.tmp), str(harness.REPO /
                              "tests/integration/zoo_apps/Zoo.java")],
                             capture_output=True, text=True)
        if res.returncode != 0:
            raise TestFailure("javac failed:\n" + res.stderr)
        zoo.run_app(s, "java", [java, "-cp", str(s.tmp), "Zoo"],
                    menu_hold=True)
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
