# SPDX-License-Identifier: MIT
"""A slow link for the tests: a network namespace of the test's own,
joined to the host's by a veth pair, whose host side can be limited with a
token bucket (tc tbf). A server listens on the host side's address
(SlowLink.server); a client runs inside the namespace (SlowLink.argv), so
all it receives crosses the limited interface.

    with SlowLink() as link:
        link.limit("2mbit")
        run(link.argv([client, "%s:%d" % (link.server, port)]))

Everything is removed on leaving (the namespace, and with it the pair).
"""

import os
import random
import subprocess

import harness
from harness import Skip


def _ip(*args, netns=None, check=True):
    argv = ["ip"] + (["netns", "exec", netns, "ip"] if netns else []) + list(args)
    res = subprocess.run(argv, capture_output=True, text=True)
    if check and res.returncode != 0:
        raise harness.TestFailure("%s: %s" % (" ".join(argv), res.stderr.strip()))
    return res


def _used_subnets():
    out = subprocess.run(["ip", "-4", "-o", "addr"], capture_output=True, text=True).stdout
    return {tuple(f.split("/")[0].split(".")[:3]) for f in out.split() if f.count(".") == 3}


class SlowLink:
    def __init__(self):
        tag = "%d%03d" % (os.getpid() % 100000, random.randrange(1000))
        self.netns = "oriel-slow-" + tag
        self.host_if = "osl%sa" % tag   # at most 15 characters
        self.ns_if = "osl%sb" % tag
        used = _used_subnets()
        while True:
            net = ("10", str(random.randrange(200, 250)), str(random.randrange(256)))
            if net not in used:
                break
        self.server = ".".join(net + ("1",))
        self.client = ".".join(net + ("2",))
        self.rate = None

    def __enter__(self):
        if subprocess.run(["ip", "netns", "list"], capture_output=True).returncode != 0:
            raise Skip("no ip netns here")
        _ip("netns", "add", self.netns)
        try:
            _ip("link", "add", self.host_if, "type", "veth", "peer", "name", self.ns_if,
                "netns", self.netns)
            _ip("addr", "add", self.server + "/30", "dev", self.host_if)
            _ip("link", "set", self.host_if, "up")
            _ip("addr", "add", self.client + "/30", "dev", self.ns_if, netns=self.netns)
            _ip("link", "set", self.ns_if, "up", netns=self.netns)
            _ip("link", "set", "lo", "up", netns=self.netns)
        except BaseException:
            self.close()
            raise
        harness.log("slow link: namespace %s, %s (host) -- %s (namespace)"
                    % (self.netns, self.server, self.client))
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        # The pair goes with the namespace; the host side is removed at once
        # rather than when the kernel gets to it.
        _ip("link", "del", self.host_if, check=False)
        _ip("netns", "del", self.netns, check=False)

    def limit(self, rate):
        """What goes to the namespace (server to client) gets at most RATE
        (tc's units, e.g. "2mbit"); what exceeds it waits up to 400 ms in
        the queue, then is dropped, as on a slow line."""
        subprocess.run(["tc", "qdisc", "replace", "dev", self.host_if, "root", "tbf",
                        "rate", rate, "burst", "32kbit", "latency", "400ms"], check=True)
        self.rate = rate
        harness.log("slow link: %s to the client" % rate)

    def unlimit(self):
        subprocess.run(["tc", "qdisc", "del", "dev", self.host_if, "root"], check=False,
                       capture_output=True)
        self.rate = None

    def argv(self, argv):
        """argv run inside the namespace (its environment kept)."""
        return ["ip", "netns", "exec", self.netns] + list(argv)
