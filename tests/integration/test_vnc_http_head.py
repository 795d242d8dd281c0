#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The VNC port answers a HEAD request for /vnc.html like a GET: the same
status, type and length, without the body; a link checker or a browser's
preflight sees the page is there."""
import http.client
import tempfile
from pathlib import Path

import harness
import vnc
from harness import Session, expect, expect_eq

PAGE = b"<!doctype html><title>noVNC stand-in</title><p>hello</p>\n"


def request(port, method, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=harness.T(10))
    try:
        conn.request(method, path)
        response = conn.getresponse()
        body = response.read()
        return response.status, dict(response.getheaders()), body
    finally:
        conn.close()


def main():
    port = vnc.free_port()
    with tempfile.TemporaryDirectory(prefix="oriel-http-") as d:
        Path(d, "vnc.html").write_bytes(PAGE)
        with Session(args=vnc.vnc_args(port, "--vnc-http", d)) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            status, headers, body = request(port, "GET", "/vnc.html")
            expect_eq(status, 200, "GET /vnc.html status")
            expect_eq(body, PAGE, "GET /vnc.html body")

            head_status, head_headers, head_body = request(port, "HEAD", "/vnc.html")
            expect_eq(head_status, 200, "HEAD /vnc.html status")
            expect_eq(head_body, b"", "HEAD /vnc.html body")
            for name in ("Content-Type", "Content-Length"):
                expect_eq(head_headers.get(name), headers.get(name),
                          "HEAD /vnc.html %s" % name)

            missing, _, _ = request(port, "HEAD", "/nothing-here.html")
            expect(missing == 404, "HEAD of a missing file: %d" % missing)


if __name__ == "__main__":
    harness.run(main)
