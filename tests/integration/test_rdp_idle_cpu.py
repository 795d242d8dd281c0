#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two RDP clients on an idle session cost oriel (almost) nothing.

Two xfreerdp clients are logged in and show a static colour window. Once
they have it, over a 10 s measurement window oriel must use under 2 % of
a core, wake up fewer than 30 times (voluntary context switches of all
its threads), and send the clients nothing: the bytes oriel's sockets
sent (ss) do not grow.
"""
import re
import subprocess
import tempfile
import time
from pathlib import Path

import harness
import rdp
import vnc
from harness import Session, expect
from test_rdp_pixels import COLOUR, check_window_shows

WINDOW = 10.0
MAX_CPU = 0.02
MAX_WAKEUPS = 30
PASSWORD = "idle-Pass-3141"


def bytes_sent(port):
    """Bytes sent on the established connections of oriel's port."""
    r = subprocess.run(["ss", "-tinH", "state", "established", "( sport = :%d )" % port],
                       capture_output=True, text=True, timeout=10)
    return sum(int(n) for n in re.findall(r"bytes_sent:(\d+)", r.stdout))


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-idle-") as d:
        users = vnc.write_users_file(Path(d), [("idler", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["1024x768"], args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            s.colour_window_at(COLOUR, (300, 200), (240, 160), "green", "org.oriel.test.g")
            rdp.wait_listening(s, port)
            s.park_pointer()
            screens = [rdp.Xvfb(s) for _ in range(2)]
            clients = []
            try:
                for i, xvfb in enumerate(screens):
                    clients.append(rdp.XFreeRDP(s, xvfb, port, "idler", PASSWORD,
                                                ["/size:1024x768"], name="idle-%d" % i))
                for xvfb, c in zip(screens, clients):
                    check_window_shows(s, xvfb, c, (240, 160), (300, 200))
                time.sleep(1)  # the last acknowledgements
                sent0 = bytes_sent(port)
                cpu, wakeups = harness.idle_cost(s.oriel.pid, WINDOW)
                sent = bytes_sent(port) - sent0
                s.check_alive()
                harness.log("idle with 2 RDP clients over %.0fs: %.2f%% CPU, %d wakeups, "
                            "%d bytes sent" % (WINDOW, 100 * cpu, wakeups, sent))
                for c in clients:
                    expect(c.alive(), "a client disconnected: %s" % c.log()[-2000:])
                expect(sent == 0, "oriel sent %d bytes to idle clients" % sent)
                expect(cpu < MAX_CPU, "oriel used %.2f%% CPU while idle with 2 RDP clients"
                       % (100 * cpu))
                expect(wakeups < MAX_WAKEUPS, "oriel woke up %d times in %.0fs while idle "
                       "with 2 RDP clients (bound %d)" % (wakeups, WINDOW, MAX_WAKEUPS))
            finally:
                for c in clients:
                    c.close()
                for xvfb in screens:
                    xvfb.close()


if __name__ == "__main__":
    harness.run(main)
