#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""orielctl rdp: start, stop, clients, disconnect, fingerprint.

oriel runs with no --rdp and no accounts. `orielctl rdp start` on a
loopback address starts the RDP server; on 0.0.0.0 it is refused (no
accounts). `orielctl rdp fingerprint` prints what oriel logged. xfreerdp
logs on (any logon, loopback without accounts) and shows up in
`orielctl rdp clients`; `orielctl rdp disconnect ID` ends it (xfreerdp
exits) and the list is empty again. `orielctl rdp stop` stops the
listener: nothing accepts there any more.
"""
import socket

import harness
import rdp
import vnc
from harness import NotYet, Session, expect, expect_eq


def main():
    port = vnc.free_port()
    with Session(outputs=["800x600"]) as s:
        expect_eq(s.orielctl("rdp", "clients", json=True), [], "clients before any server")
        res = s.orielctl_raw("rdp", "start", "0.0.0.0:%d" % vnc.free_port())
        expect(res.returncode != 0 and "without accounts" in res.stderr,
               "rdp start on 0.0.0.0 without accounts: %d %r" % (res.returncode, res.stderr))
        s.orielctl("rdp", "start", "%s:%d" % (rdp.LOCALHOST, port))
        rdp.wait_listening(s, port)
        fp = s.orielctl("rdp", "fingerprint", json=True)
        expect_eq(fp["sha256"], rdp.fingerprint(s), "the fingerprint orielctl prints")

        xvfb = rdp.Xvfb(s)
        client = None
        try:
            client = rdp.XFreeRDP(s, xvfb, port, "anyone", "anything",
                                  cert="/cert:fingerprint:sha256:" + fp["sha256"])
            client.window()

            def listed():
                clients = s.orielctl("rdp", "clients", json=True)
                if len(clients) != 1:
                    raise NotYet("clients: %r" % clients)
                return clients[0]
            entry = s.wait_for(listed, what="the client in 'orielctl rdp clients'")
            expect_eq((entry["peer"], entry["view_only"]), (rdp.LOCALHOST, False),
                      "the listed client")
            s.orielctl("rdp", "disconnect", entry["id"])
            client.wait_exit()
            expect_eq(s.orielctl("rdp", "clients", json=True), [], "clients after disconnect")
            res = s.orielctl_raw("rdp", "disconnect", entry["id"])
            expect(res.returncode != 0, "disconnecting a gone client succeeded")
        finally:
            if client:
                client.close()
            xvfb.close()

        s.orielctl("rdp", "stop", "%s:%d" % (rdp.LOCALHOST, port))
        try:
            socket.create_connection((rdp.LOCALHOST, port), timeout=5).close()
            raise harness.TestFailure("something still accepts on the stopped port")
        except ConnectionRefusedError:
            pass


if __name__ == "__main__":
    harness.run(main)
