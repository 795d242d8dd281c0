# SPDX-License-Identifier: MIT
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


def sync_events(client):
    """The --sync-request client's log as (kind, values) tuples: sync requests,
    counter sets and real ConfigureNotify sizes."""
    out = []
    for line in client.log().splitlines():
        m = re.match(r"^sync-request (\d+)$", line)
        if m:
            out.append(("request", int(m.group(1))))
            continue
        m = re.match(r"^sync-set (\d+) (\d+)x(\d+)$", line)
        if m:
            out.append(("set", int(m.group(1)), (int(m.group(2)), int(m.group(3)))))
            continue
        m = re.match(r"^configure -?\d+ -?\d+ (\d+) (\d+) real$", line)
        if m:
            out.append(("configure", (int(m.group(1)), int(m.group(2)))))
    return out


def check_sync_protocol(events, start_size):
    """Serials increase; each new size comes after its serial and only once
    the serial of the size before was set."""
    requests = [e[1] for e in events if e[0] == "request"]
    expect(len(requests) >= 2, "sync requests for the resizes: %r" % (requests,))
    expect(requests == sorted(set(requests)),
           "sync request serials do not increase: %r" % (requests,))
    size = start_size
    latest_request = None  # the serial that came before the size being drawn
    previous = None        # the serial of the size before
    set_so_far = 0
    for e in events:
        if e[0] == "request":
            latest_request = e[1]
        elif e[0] == "set":
            set_so_far = max(set_so_far, e[1])
        elif e[0] == "configure" and e[1] != size:
            size = e[1]
            expect(latest_request is not None and latest_request != previous,
                   "size %r came with no new sync request before it: %r" % (size, events))
            if previous is not None:
                expect(set_so_far >= previous,
                       "size %r was configured before the counter reached %d "
                       "(the size before's serial): %r" % (size, previous, events))
            previous = latest_request
