"""The xwayland suite's X test client (tests/clients/xclient.c)."""
import os
import re
from pathlib import Path

import harness
from harness import NotYet, expect, exe


def xclient_path():
    if os.environ.get("ORIEL_TEST_XCLIENT"):
        return exe("ORIEL_TEST_XCLIENT")
    build = Path(os.environ.get("ORIEL_BUILD_DIR", harness.REPO / "build"))
    path = build / "tests/clients/oriel-test-xclient"
    expect(path.is_file(), "set ORIEL_TEST_XCLIENT (no %s)" % path)
    return str(path)


def spawn(s, title, *args):
    """Starts the client with a title; returns it and its X window id."""
    c = s.spawn_x([xclient_path(), "--title", title] + [str(a) for a in args],
                  name="xclient-" + title)

    def wid():
        m = re.search(r"^window (0x[0-9a-f]+)$", c.log(), re.M)
        if not m:
            raise NotYet("no window line yet")
        return m.group(1)
    return c, s.wait_for(wid, what="%s's window id" % title)
