#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""H.264 on a slow link, through oriel-gateway: frames get coarser rather
than queued, as for a client of the session's own listener
(test_rdp_slow_link.py).

oriel-gateway serves RDP on one side of a veth pair; alice's session runs
bench/apps/animate (the whole screen moving at 60 fps, its frame counter
in its pixels). oriel-test-rdpclient (AVC420) logs in from a network
namespace on the other side and follows the gateway's redirection, so
her oriel gets the client's TCP connection behind its TLS bridge: her
FreeRDP writes to a socketpair, not to the link. First the link is
unlimited, then limited to half what it carried (test_rdp_slow_link);
after the motion went on for a while the client still reads a new frame number every second, its picture lags
the app's by less than a second, and a frame costs fewer bytes than on
the unlimited link. (A relayed client, one that cannot follow the
redirection, keeps its TCP connection in the gateway's worker, whose
queue her oriel cannot see: it gets fewer frames instead.)
"""
from pathlib import Path

import gateway
import harness
import rdp
from harness import expect
from slow_link import SlowLink
from test_rdp_slow_link import OUTPUT, AppLog, animate_args, coarser_not_queued
from test_rdp_stalled_client import build_animate


def main():
    with SlowLink() as link:
        host = gateway.Host(("alice",), config="")
        try:
            # In her home: her session has a /tmp of its own.
            home = Path(host.home("alice"))
            animate = build_animate(home)
            app = AppLog(str(home / "frames.log"))
            host.config_path().write_text("[session]\ncommand = %s\noutput = %dx%d\n" % (
                " ".join([animate] + animate_args(app)), OUTPUT[0], OUTPUT[1]))
            front = gateway.Front(host, rdp=True, vnc=False, rdp_host=link.server)
            password = rdp.write_secret(front, host.passwords["alice"])

            def client(name):
                c = rdp.RdpClient(front, front.rdp_port, name=name, user=host.users["alice"],
                                  password_file=password, size=OUTPUT, gfx="avc420",
                                  link=link, extra=["--counter", "--no-rects"])
                c.wait_connected(timeout=40)
                expect(len(c.lines_since(0, "redirected")) == 1,
                       "%s: the client was redirected into her session" % name)
                return c
            coarser_not_queued(front, link, app, client)
            front.check_alive()
        finally:
            host.close()


if __name__ == "__main__":
    harness.run(main)
