#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""alice logs in through oriel-gateway from a browser, with her system account.

Headless Chromium (tests/browser/cdp.py; --ignore-certificate-errors, since
the gateway's certificate is its own) loads noVNC from the gateway's VNC
port over https, and noVNC connects over wss, where the gateway offers
VeNCrypt with the Plain sub-type and checks the account through PAM. The
test fills noVNC's credentials dialog as a person would:
- a wrong password is refused in the page, with the gateway's reason, and
  the gateway logs the failed login;
- the right one logs in: the canvas shows her session's xterm, keys typed
  into the page reach it (its shell writes them to a file of hers), and
  her logins with a native VNC viewer and an RDP client (through the
  gateway's redirection) reach the same session (the same oriel pid, three
  clients);
- wrong passwords in the page from then on are throttled: the page shows
  that the address must wait, and the gateway logs it;
- over plain http the port tells the browser to use https, and a WebSocket
  from a foreign Origin (another site's page in her browser) gets 403,
  with a foreign Host (DNS rebinding) 421.
"""
import json
import os
import socket
import ssl
import sys
import time

import gateway
import harness
import novnc
import rdp
from harness import NotYet, REPO, TestFailure, expect, expect_eq, log, tool

sys.path.insert(0, str(REPO / "tests" / "browser"))
import cdp  # noqa: E402

OUTPUT = (1024, 768)
TYPED = "hello gateway"
WS_REQUEST = ("GET /websockify HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\nUpgrade: websocket\r\n"
              "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
              "Sec-WebSocket-Version: 13\r\n\r\n")


def wait_state(front, page, check, what):
    return novnc.wait_state(front, page, check, what, timeout=40)


def try_login(front, page, user, password):
    """A fresh page's login: noVNC's state once it connected or was refused."""
    page.call("Page.reload")
    wait_state(front, page, lambda st: st["dialog"], "noVNC to ask for credentials")
    novnc.send_credentials(page, user, password)
    return wait_state(front, page, lambda st: st["connected"] or "rejected" in st["status"]
                      or "failed" in st["status"].lower(), "noVNC to log in or be refused")


def xterm_in_canvas(page):
    """The box (x, y, w, h) of the xterm's colour in noVNC's canvas."""
    js = ("(() => { const c = %s; if (!c || !c.width) return null;"
          " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
          " const bg = %s, tol = %d; let n = 0, x0 = 1e9, y0 = 1e9, x1 = -1, y1 = -1;"
          " for (let y = 0; y < c.height; y += 2) for (let x = 0; x < c.width; x += 2) {"
          "  const i = 4 * (y * c.width + x);"
          "  if (Math.abs(d[i] - bg[0]) <= tol && Math.abs(d[i+1] - bg[1]) <= tol &&"
          "      Math.abs(d[i+2] - bg[2]) <= tol) {"
          "   n++; x0 = Math.min(x0, x); y0 = Math.min(y0, y);"
          "   x1 = Math.max(x1, x); y1 = Math.max(y1, y); } }"
          " return [n * 4, x0, y0, x1 - x0 + 2, y1 - y0 + 2, c.width, c.height]; })()"
          % (novnc.CANVAS, json.dumps(list(gateway.XTERM_BG)), gateway.XTERM_TOLERANCE + 8))
    got = page.evaluate(js)
    if got is None:
        raise NotYet("no canvas yet")
    if got[0] < 2000:
        raise NotYet("%d pixels of the xterm's colour in a %dx%d canvas" % (
            got[0], got[5], got[6]))
    return got


def https_exchange(front, request, tls=True):
    """Sends request to the gateway's port (over TLS unless not tls); its whole answer."""
    raw = socket.create_connection(front.address, timeout=harness.T(15))
    try:
        if tls:
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            raw = context.wrap_socket(raw)
        raw.sendall(request.encode())
        answer = b""
        while True:
            try:
                chunk = raw.recv(4096)
            except (ssl.SSLError, ConnectionResetError):
                break
            if not chunk:
                break
            answer += chunk
        return answer.decode(errors="replace")
    finally:
        raw.close()


def main():
    tool("chromium")
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\noutput = %dx%d\n" % (
        gateway.XTERM_COMMAND, OUTPUT[0], OUTPUT[1]))
    try:
        run(host)
    except TestFailure:
        for front in host.fronts:
            log("the gateway's log:\n" + front.log()[-6000:])
        raise
    finally:
        host.close()


def run(host):
    front = gateway.Front(host, rdp=True)
    user, password = host.users["alice"], host.passwords["alice"]
    origin = "https://127.0.0.1:%d" % front.port

    # What the port says to requests that are not its own page's.
    answer = https_exchange(front, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", tls=False)
    expect(answer.startswith("HTTP/1.1 400") and "https" in answer,
           "plain http is told to use https: %r" % answer[:300])
    answer = https_exchange(front, WS_REQUEST % ("127.0.0.1:%d" % front.port,
                                                 "https://evil.example"))
    expect(answer.startswith("HTTP/1.1 403"), "a foreign Origin's WebSocket: %r" % answer[:300])
    answer = https_exchange(front, WS_REQUEST % ("evil.example:%d" % front.port,
                                                 "https://evil.example:%d" % front.port))
    expect(answer.startswith("HTTP/1.1 421"), "a foreign Host's WebSocket: %r" % answer[:300])
    answer = https_exchange(front, "GET /vnc.html HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" %
                            front.port)
    expect(answer.startswith("HTTP/1.1 200") and "noVNC" in answer,
           "noVNC's page over https: %r" % answer[:300])
    expect_eq(host.sessions(), [], "sessions before any login")

    # The address as a person types it: noVNC takes host, port, wss and its
    # path from the page's own location.
    url = "%s/?autoconnect=1&resize=off" % origin
    with cdp.Chromium(front, url, chromium=tool("chromium"),
                      flags=["--ignore-certificate-errors"]) as chrome:
        page = chrome.page()
        start = time.monotonic()
        wait_state(front, page, lambda st: st["dialog"],
                   "noVNC, loaded from the gateway, to ask for credentials")
        log("noVNC loaded and asked for credentials in %.2f s" % (time.monotonic() - start))
        novnc.send_credentials(page, user, "not-" + password)
        st = wait_state(front, page, lambda st: "rejected" in st["status"],
                        "noVNC to show the refusal")
        expect("authentication failed" in st["status"],
               "noVNC's status names the gateway's reason: %r" % st["status"])
        expect(not st["connected"], "noVNC connected with a wrong password")
        def failure_logged():
            if 'failed login as "%s" from 127.0.0.1' % user not in front.log():
                raise NotYet("no failed login logged")
            return True
        front.wait_for(failure_logged, 20, "the gateway to log the failed login")
        expect_eq(host.sessions(), [], "sessions after a wrong password")

        page.call("Page.reload")
        wait_state(front, page, lambda st: st["dialog"], "noVNC to ask again after a reload")
        start = time.monotonic()
        novnc.send_credentials(page, user, password)
        st = wait_state(front, page, lambda st: st["connected"] or "rejected" in st["status"],
                        "noVNC to log in")
        expect(st["connected"], "noVNC with her password: %r" % st)
        log("her password to noVNC connected (her session started): %.2f s" % (
            time.monotonic() - start))
        box = front.wait_for(lambda: xterm_in_canvas(page), 40,
                             "her xterm in noVNC's canvas")
        log("the canvas (%dx%d) shows her xterm at %r" % (box[5], box[6], box[1:5]))
        expect_eq((box[5], box[6]), OUTPUT, "the canvas's size (her session's output)")
        row = host.her_session("alice")
        pid = row["pid"]
        expect("through oriel-gateway" in host.session_log(row) and
               "Plain inside wss" in host.session_log(row),
               "her session logs the browser's hand-over")

        novnc.click(page, box[1] + box[3] // 2, box[2] + box[4] // 2)
        typed = os.path.join(host.home("alice"), "typed.txt")

        def written():
            novnc.type_text(page, TYPED)
            try:
                text = open(typed, encoding="utf-8", errors="replace").read()
            except OSError:
                text = ""
            if TYPED not in text.splitlines():
                raise NotYet("%s holds %r" % (typed, text))
            return text
        front.wait_for(written, 40, "her xterm's shell to write the line typed in the page")

        # Her native VNC and RDP logins: the same session.
        v = front.viewer("alice", name="libvncclient")
        expect_eq(v.wait_connected(), OUTPUT, "the viewer's framebuffer size")
        secret = rdp.write_secret(front, password)
        client = rdp.RdpClient(front, front.rdp_port, user=user, password_file=secret,
                               size=OUTPUT)
        expect_eq(client.wait_connected(timeout=40)[:2], OUTPUT,
                  "the RDP client's desktop size")
        rows = host.sessions()
        expect_eq([(r["pid"], r["clients"]) for r in rows], [(pid, "3")],
                  "--list with the browser, the VNC viewer and the RDP client: her one "
                  "session, three clients")
        v.send("quit")
        v.wait(20)
        client.kill()

        # Guessing from the browser is throttled.
        def must_wait():
            st = try_login(front, page, user, "wrong-" + password)
            expect(not st["connected"], "noVNC connected with a wrong password")
            if "wait" not in st["status"]:
                raise NotYet("refused with %r" % st["status"])
            return st
        st = front.wait_for(must_wait, 120, "the page to show that the address must wait")
        log("the page says: %r" % st["status"])
        expect("127.0.0.1 must wait before logging in again" in front.log(),
               "the gateway logs that 127.0.0.1 must wait")
        expect(password not in front.log(), "her password is in the gateway's log")
        page.close()


if __name__ == "__main__":
    harness.run(main)
