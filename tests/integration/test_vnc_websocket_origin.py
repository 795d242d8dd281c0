#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The VNC port answers only its own web pages.

A web page elsewhere must not drive the session through the user's
browser, and a name that an attacker's DNS points at 127.0.0.1 (DNS
rebinding) must not reach it either.  Raw HTTP over TCP, as a browser
sends it, to a real oriel that serves a page on its VNC port:

- a WebSocket upgrade with `Origin: http://evil.example` gets 403 with a
  body saying why, no RFB byte, and a log line, over ws and wss;
  `Origin: null` too;
- the page's own origin (http://127.0.0.1:PORT with Host 127.0.0.1:PORT,
  what Chromium sends from noVNC's page) gets 101 and the RFB version
  string inside the WebSocket;
- `--vnc-allow-origin https://app.example` lets that origin in, and
  https://app.example.net stays out;
- `Host: attacker.example`, with or without an Origin, is refused (421)
  on an upgrade and on a plain GET /vnc.html, which `Host: 127.0.0.1:PORT`
  and `Host: localhost` get;
- with `[vnc] allow-host = attacker.example` and `allow-origin` in the
  config file (a comma separated list), that name is served: the page
  and, from its own origin, the WebSocket;
- a malformed `--vnc-allow-origin` stops oriel at start with a line that
  says so.
"""
import base64
import os
import socket
import ssl
import tempfile
from pathlib import Path

import harness
import vnc
from harness import Session, TestFailure, expect, expect_eq

PAGE = b"<!doctype html><title>noVNC stand-in</title><p>hello</p>\n"


def exchange(port, request, tls=False):
    """Sends request (over TLS: wss); returns (status, headers, body) once
    oriel closed, or (101, headers, first bytes after the headers) for an
    upgrade."""
    sock = socket.create_connection((vnc.LOCALHOST, port), timeout=harness.T(10))
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        sock = context.wrap_socket(sock)
    try:
        sock.sendall(request.encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                raise TestFailure("oriel closed the connection without an HTTP "
                                  "answer to %r (got %r)" % (request, data))
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip()
                   for l in lines[1:] if ":" in l}
        if status == 101:
            # RFB servers speak first: the version comes in a binary frame.
            while len(rest) < 2 + 12:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                rest += chunk
            return status, headers, rest
        # Everything up to oriel's close: a refusal has no RFB after its body.
        while True:
            try:
                chunk = sock.recv(65536)
            except ssl.SSLEOFError:
                break
            if not chunk:
                break
            rest += chunk
        return status, headers, rest
    finally:
        sock.close()


def upgrade(port, host, origin=None):
    key = base64.b64encode(os.urandom(16)).decode()
    return ("GET /websockify HTTP/1.1\r\n" + ("Host: %s\r\n" % host if host else "") +
            ("Origin: %s\r\n" % origin if origin else "") +
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
            "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: binary\r\n\r\n" % key)


def page(host):
    return "GET /vnc.html HTTP/1.1\r\nHost: %s\r\nAccept: text/html\r\n\r\n" % host


def expect_rfb(port, host, origin, what, tls=False):
    status, _, rest = exchange(port, upgrade(port, host, origin), tls)
    expect_eq(status, 101, "%s: status" % what)
    # An unmasked binary frame of 12 bytes: 0x82 0x0c "RFB 003.008\n".
    expect_eq(rest[:14], b"\x82\x0cRFB 003.008\n", "%s: the RFB version in the WebSocket"
              % what)


def expect_refused(s, port, request, status, words, what, tls=False):
    got, headers, body = exchange(port, request, tls)
    expect_eq(got, status, "%s: status" % what)
    expect(b"RFB" not in body, "%s: RFB bytes in the refusal: %r" % (what, body))
    text = body.decode("utf-8", "replace")
    expect(all(w in text for w in words), "%s: the body says %r, without %r"
           % (what, text, words))
    expect_eq(int(headers.get("content-length", -1)), len(body), "%s: Content-Length"
              % what)
    return text


def wait_log(s, words, what):
    def logged():
        for line in s.log_text().splitlines():
            if all(w in line for w in words):
                return line
        raise harness.NotYet("no log line with %r" % (words,))
    return s.wait_for(logged, 10, what)


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-origin-") as d:
        Path(d, "vnc.html").write_bytes(PAGE)
        port = vnc.free_port()
        own = "127.0.0.1:%d" % port
        args = vnc.vnc_args(port, "--vnc-http", d,
                            "--vnc-allow-origin", "https://app.example")
        with Session(outputs=["640x480"], xwayland="off", args=args) as s:
            vnc.wait_listening(s, vnc.tcp(port))

            # Another web page: refused before any RFB, and logged.
            expect_refused(s, port, upgrade(port, own, "http://evil.example"), 403,
                           ["403 Forbidden", "http://evil.example:80", "--vnc-allow-origin"],
                           "an upgrade from http://evil.example")
            wait_log(s, ["closing the connection from 127.0.0.1", "evil.example"],
                     "a log line for the evil origin")
            expect_refused(s, port, upgrade(port, own, "http://evil.example"), 403,
                           ["evil.example"], "a wss upgrade from http://evil.example",
                           tls=True)
            expect_refused(s, port, upgrade(port, "attacker.example", "https://attacker.example"),
                           421, ["attacker.example"], "a wss upgrade with Host attacker.example",
                           tls=True)
            expect_refused(s, port, upgrade(port, own, "null"), 403, ["null"],
                           "an upgrade from a null origin")
            expect_refused(s, port, upgrade(port, own, "http://127.0.0.1:%d" % (port + 1)),
                           403, ["403"], "an upgrade from the same host on another port")
            expect_refused(s, port, upgrade(port, own, "https://app.example.net"), 403,
                           ["403"], "an upgrade from an origin that is not allowed")

            # The page's own origin, no origin at all, an allowed origin.
            expect_rfb(port, own, "http://%s" % own, "an upgrade from the page's own origin")
            expect_rfb(port, "localhost:%d" % port, "http://localhost:%d" % port,
                       "an upgrade from http://localhost")
            expect_rfb(port, own, "https://app.example", "an upgrade from --vnc-allow-origin")
            expect_rfb(port, own, "https://%s" % own, "a wss upgrade from the https page",
                       tls=True)

            # DNS rebinding: the attacker's name, upgrade or page.
            for origin in ("http://attacker.example:%d" % port, None):
                expect_refused(s, port, upgrade(port, "attacker.example:%d" % port, origin),
                               421, ["421 Misdirected Request", "attacker.example",
                                     "--vnc-allow-host"],
                               "an upgrade with Host attacker.example (Origin %s)" % origin)
            expect_refused(s, port, page("attacker.example:%d" % port), 421,
                           ["attacker.example"], "GET /vnc.html with Host attacker.example")
            wait_log(s, ["refusing a page to 127.0.0.1", "attacker.example"],
                     "a log line for the refused page")
            expect_refused(s, port, page("user@%s" % own), 400, ["400"],
                           "GET /vnc.html with userinfo in Host")
            for host in (own, "localhost:%d" % port, "LOCALHOST.:%d" % port):
                status, _, body = exchange(port, page(host))
                expect_eq((status, body), (200, PAGE), "GET /vnc.html with Host %s" % host)
            s.check_alive()

        # Names and origins from the config file.
        config = Path(d, "oriel.ini")
        config.write_text("[vnc]\nallow-host = attacker.example\n"
                          "allow-origin = https://app.example, http://other.example:8080\n")
        port = vnc.free_port()
        with Session(outputs=["640x480"], xwayland="off", config=config,
                     args=vnc.vnc_args(port, "--vnc-http", d)) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            status, _, body = exchange(port, page("attacker.example:%d" % port))
            expect_eq((status, body), (200, PAGE), "GET /vnc.html with an allowed Host")
            expect_rfb(port, "attacker.example:%d" % port, "http://attacker.example:%d" % port,
                       "an upgrade from the allowed name's own page")
            expect_rfb(port, "127.0.0.1:%d" % port, "http://other.example:8080",
                       "an upgrade from the config's second origin")
            expect_refused(s, port, upgrade(port, "attacker.example:%d" % port,
                                            "http://evil.example"),
                           403, ["evil.example"], "an evil origin with an allowed Host")
            expect_refused(s, port, page("other.attacker.example"), 421, ["421"],
                           "another name")

    # A malformed origin stops oriel before it serves anything.
    port = vnc.free_port()
    with Session(outputs=["640x480"], xwayland="off",
                 args=vnc.vnc_args(port, "--vnc-allow-origin",
                                                         "app.example/path"),
                 wait_ready=False, check_exit=False) as s:
        status = s.wait_exit(timeout=harness.T(20))
        text = s.log_text()
        expect_eq(status, 1, "oriel's exit status with a malformed --vnc-allow-origin")
        want = "oriel: --vnc-allow-origin app.example/path: not an origin"
        expect(want in text, "no %r in:\n%s" % (want, text[-2000:]))

if __name__ == "__main__":
    harness.run(main)
