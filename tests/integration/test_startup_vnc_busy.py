#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A --vnc port that another program holds stops oriel before Xwayland and
the session command start, with lazy and with eager Xwayland: it names the
port and says to pick another, and leaves nothing running (no fork of
oriel waiting for Xwayland, no Xwayland)."""
import socket

import harness
import startup


def main():
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    port = holder.getsockname()[1]
    try:
        for mode in ("lazy", "eager"):
            failure = startup.start_failing([
                "--backend", "headless", "--renderer", "pixman",
                "--xwayland", mode, "--vnc", "127.0.0.1:%d" % port])
            startup.expect_message(failure, "port %d is in use" % port,
                                   "pick another --vnc port")
    finally:
        holder.close()


if __name__ == "__main__":
    harness.run(main)
