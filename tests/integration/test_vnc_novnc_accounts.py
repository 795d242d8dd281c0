#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""noVNC in headless Chromium logs in with an account, over https.

oriel runs with --vnc-users only: no VNC password file. Headless Chromium
(tests/browser/cdp.py; --ignore-certificate-errors, since oriel's
certificate is its own) loads https://127.0.0.1:PORT/vnc.html from the
VNC port itself, and noVNC connects over wss, where oriel offers
VeNCrypt with the Plain sub-type. The test fills noVNC's credentials
dialog as a person would:
- a wrong password is refused in the page (noVNC's "rejected" status,
  with oriel's reason), and oriel's log names the failed login;
- after a reload, the right one logs in: the log names the account, the
  canvas shows a window's colour where the session has it, and keys
  typed into the page (CDP key events, so noVNC's own keyboard handling)
  reach an xterm, which writes the line to a file;
- wrong passwords from then on are throttled: a reloaded page that comes
  while the address must wait is told so inside its WebSocket (noVNC's
  "rejected" status shows oriel's reason), not left with a closed socket.
"""
import shlex
import sys
import tempfile

import harness
import novnc
import vnc
from harness import NotYet, REPO, Session, TestFailure, expect, expect_eq, geometry, tool

sys.path.insert(0, str(REPO / "tests" / "browser"))
import cdp  # noqa: E402

USER, PASSWORD, WRONG = "webuser", "Right-horse-42", "wrong-horse-42"
COLOUR = (0xd0, 0x20, 0x40)
TOLERANCE = 24
TYPED = "hello oriel"


def wait_state(s, page, check, what):
    return novnc.wait_state(s, page, check, what, timeout=30)


def wait_log(s, text, what):
    def logged():
        if text not in s.log_text():
            raise NotYet(what)
        return True
    s.wait_for(logged, what=what)


def canvas_colour_ok(page, rect):
    x, y, w, h = rect
    js = ("(() => { const c = %s; if (!c || !c.width) return null;"
          " const d = c.getContext('2d').getImageData(%d, %d, %d, %d).data;"
          " const out = []; for (let i = 0; i < d.length; i += 4)"
          " out.push([d[i], d[i+1], d[i+2]]); return out; })()" % (novnc.CANVAS, x, y, w, h))
    pixels = page.evaluate(js)
    if pixels is None:
        raise NotYet("no canvas yet")
    bad = [p for p in pixels if any(abs(p[c] - COLOUR[c]) > TOLERANCE for c in range(3))]
    if bad:
        raise NotYet("%d of %d pixels differ, e.g. %s" % (len(bad), len(pixels), bad[0]))
    return True


def main():
    port = vnc.free_port()
    with tempfile.TemporaryDirectory(prefix="oriel-novnc-accounts-") as d:
        users = vnc.write_users_file(d, [(USER, PASSWORD)])
        with Session(outputs=["1024x768"],
                     args=vnc.vnc_args(port, "--vnc-users", users)) as s:
            run(s, port)


def run(s, port):
    a = s.spawn_colour(COLOUR, size=(320, 240), title="novnc A", app_id="org.oriel.test.a")
    a.wait_ready(size=(320, 240))
    ra = geometry(s.wait_window(app_id="org.oriel.test.a"))
    out = s.tmp / "typed.txt"
    script = 'read l; printf "%%s\\n" "$l" > %s.tmp && mv %s.tmp %s' % (
        shlex.quote(str(out)), shlex.quote(str(out)), shlex.quote(str(out)))
    xterm = s.spawn_x([tool("xterm"), "-u8", "-geometry", "60x8+500+400",
                       "-title", "novnc keyboard", "-e", "sh", "-c", script])
    term = s.wait_window(app_id="XTerm", kind="x11",
                         where=lambda w: w["width"] > 0 and w["height"] > 0)
    s.park_pointer()
    vnc.wait_listening(s, vnc.tcp(port))

    url = ("https://%s:%d/vnc.html?autoconnect=1&host=%s&port=%d&encrypt=1"
           "&resize=off&path=websockify" % (vnc.LOCALHOST, port, vnc.LOCALHOST, port))
    with cdp.Chromium(s, url, chromium=tool("chromium"),
                      flags=["--ignore-certificate-errors"]) as chrome:
        page = chrome.page()
        wait_state(s, page, lambda st: st["dialog"], "noVNC to ask for credentials over https")
        novnc.send_credentials(page, USER, WRONG)
        st = wait_state(s, page, lambda st: "rejected" in st["status"],
                        "noVNC to show the refusal")
        expect("authentication failed" in st["status"],
               "noVNC's status names oriel's reason: %r" % st["status"])
        expect(not st["connected"], "noVNC connected with a wrong password")
        wait_log(s, 'failed login as "%s" from 127.0.0.1 (Plain' % USER,
                 "the failed login in oriel's log")

        page.call("Page.reload")
        wait_state(s, page, lambda st: st["dialog"], "noVNC to ask again after a reload")
        novnc.send_credentials(page, USER, PASSWORD)
        wait_state(s, page, lambda st: st["connected"], "noVNC to connect with the account")
        wait_log(s, 'logged in as "%s" over WebSocket (Plain)' % USER,
                 "the account's login in oriel's log")

        inner = vnc.grow(ra, -16, -16, -16, -16)
        s.wait_for(lambda: canvas_colour_ok(page, (inner[0], inner[1], 32, 32)), 30,
                   "window A's colour in noVNC's canvas")

        novnc.click(page, term["x"] + term["width"] // 2, term["y"] + term["height"] // 2)
        s.wait_window(id=term["id"], where=lambda w: w["focused"],
                      what="xterm to be focused after the click in the page")
        s.wait_x_focus(s.wait_x_window("XTerm"))
        novnc.type_text(page, TYPED)

        def written():
            if not out.exists():
                if not xterm.alive():
                    raise TestFailure("xterm exited without writing %s" % out)
                raise NotYet("%s not written yet" % out)
            return out.read_text(encoding="utf-8", errors="replace")
        got = s.wait_for(written, what="xterm's shell to read the line typed in the page")
        expect_eq(got, TYPED + "\n", "the line typed through noVNC")

        # Guessing from the browser is throttled, and the page says why.
        def must_wait():
            page.call("Page.reload")
            st = wait_state(s, page, lambda st: st["dialog"] or "rejected" in st["status"],
                            "noVNC to ask for credentials or be refused")
            if st["dialog"]:
                novnc.send_credentials(page, USER, WRONG)
                st = wait_state(s, page, lambda st: st["connected"] or
                                "rejected" in st["status"], "noVNC to be refused")
            expect(not st["connected"], "noVNC connected with a wrong password")
            if "wait before logging in again" not in st["status"]:
                raise NotYet("refused with %r" % st["status"])
            return st
        st = s.wait_for(must_wait, 120, "the page to show that the address must wait")
        harness.log("the page says: %r" % st["status"])
        expect("too many failed logins from this address" in st["status"],
               "the page names the reason: %r" % st["status"])
        wait_log(s, "refusing 127.0.0.1 for now: too many failed logins",
                 "oriel to log that 127.0.0.1 must wait")
        page.close()


if __name__ == "__main__":
    harness.run(main)
