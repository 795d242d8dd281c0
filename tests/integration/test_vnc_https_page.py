#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""noVNC's page over https, from the VNC port, with its web rules.

oriel runs with --vnc-users only. A TLS client that trusts only oriel's
certificate asks the VNC port for pages:
- GET /vnc.html is answered 200 with the file's bytes (Debian's noVNC),
  HEAD with its headers alone, and a missing file gets 404;
- a Host that names no address of this server gets 421, over https as
  over http, and nothing of the page;
- a WebSocket upgrade over the same TLS from an https page of another
  site gets 403, and from this server's https page it gets its 101;
- oriel's log never shows libvncserver's "Hixie" complaint (an HTTP
  request it was given by mistake).
"""
import socket
import ssl
import tempfile
from pathlib import Path

import harness
import test_vnc_tls
import vnc
from harness import Session, TestFailure, expect, expect_eq

NOVNC = Path("/usr/share/novnc")


def https(port, cert, request):
    """(status line, headers, body) of one request over TLS."""
    raw = socket.create_connection(vnc.tcp(port), timeout=harness.T(10))
    context = ssl.create_default_context(cafile=str(cert))
    with context.wrap_socket(raw, server_hostname=vnc.LOCALHOST) as tls:
        tls.sendall(request.encode())
        data = b""
        while True:
            try:
                chunk = tls.recv(65536)
            except ssl.SSLError:
                break
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip()
               for l in lines[1:] if ":" in l}
    return lines[0], headers, body


def main():
    if not (NOVNC / "vnc.html").exists():
        raise TestFailure("Debian's novnc is not installed")
    port = vnc.free_port()
    with tempfile.TemporaryDirectory(prefix="oriel-https-page-") as d:
        users = vnc.write_users_file(d, [("webuser", "right horse")])
        with Session(outputs=["640x480"],
                     args=vnc.vnc_args(port, "--vnc-users", users)) as s:
            vnc.wait_listening(s, vnc.tcp(port))
            cert, _, _ = vnc.certificate(s)
            here = "127.0.0.1:%d" % port

            status, headers, body = https(port, cert, "GET /vnc.html HTTP/1.1\r\n"
                                          "Host: %s\r\n\r\n" % here)
            expect_eq(status, "HTTP/1.1 200 OK", "GET /vnc.html over https")
            expect(body == (NOVNC / "vnc.html").read_bytes(),
                   "the page over https is not vnc.html (%d bytes)" % len(body))
            expect(headers.get("content-type", "").startswith("text/html"),
                   "Content-Type %r" % headers.get("content-type"))
            status, headers, body = https(port, cert, "HEAD /vnc.html HTTP/1.1\r\n"
                                          "Host: %s\r\n\r\n" % here)
            expect_eq((status, body), ("HTTP/1.1 200 OK", b""), "HEAD over https")
            expect_eq(headers.get("content-length"),
                      str(len((NOVNC / "vnc.html").read_bytes())), "HEAD's length")
            status, _, _ = https(port, cert, "GET /no-such-file.js HTTP/1.1\r\n"
                                 "Host: %s\r\n\r\n" % here)
            expect_eq(status, "HTTP/1.1 404 Not Found", "a missing file over https")

            status, _, body = https(port, cert, "GET /vnc.html HTTP/1.1\r\n"
                                    "Host: evil.example:%d\r\n\r\n" % port)
            expect_eq(status, "HTTP/1.1 421 Misdirected Request", "a foreign Host over https")
            expect(b"<html" not in body.lower(), "a foreign Host got the page")

            raw = socket.create_connection(vnc.tcp(port), timeout=harness.T(10))
            context = ssl.create_default_context(cafile=str(cert))
            try:
                tls = context.wrap_socket(raw, server_hostname=vnc.LOCALHOST)
                test_vnc_tls.WS(tls, here, "https://evil.example")
                raise harness.TestFailure("a foreign https page got a WebSocket")
            except TestFailure as e:
                expect("403" in str(e), "a foreign https Origin: %s" % e)
            finally:
                raw.close()
            raw = socket.create_connection(vnc.tcp(port), timeout=harness.T(10))
            try:
                tls = context.wrap_socket(raw, server_hostname=vnc.LOCALHOST)
                ws = test_vnc_tls.WS(tls, here, "https://" + here)
                expect_eq(ws.read(12), b"RFB 003.008\n", "RFB over wss from its own page")
            finally:
                raw.close()
            expect("Hixie" not in s.log_text(), "libvncserver was given an HTTP request")


if __name__ == "__main__":
    harness.run(main)
