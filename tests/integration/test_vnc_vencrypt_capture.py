#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Nothing of a VeNCrypt session can be read off the wire.

A recording proxy on 127.0.0.1 sits between the libvncclient viewer and
oriel and keeps every byte of both directions.  The session shows a solid
colour window, and the viewer types a known secret into an xterm (which
must read it, so the keys did go through), with raw encoding, so that in
the clear the window's pixels travel as long runs of the same 4 bytes and
each key as a KeyEvent message.

- over VeNCrypt X509Plain (--vnc-users): the capture holds neither the
  secret's KeyEvents (nor its text) nor a run of the colour's pixels;
- the same run without TLS (security None on loopback) does hold both,
  which shows the search would find them.
"""
import shlex
import struct
import tempfile
from pathlib import Path

import harness
import vnc
from harness import NotYet, Session, expect, expect_eq, tool

COLOUR = (0x5a, 0xc3, 0x3e)
SECRET = "Zebra-Quartz-8817"
PASSWORD = "capture-Pass-4412"
RUN = 64  # pixels


def key_events(text):
    """The KeyEvent messages a viewer sends to type text (press, release)."""
    out = b""
    for ch in text:
        sym = ord(ch)
        out += struct.pack(">BBxxI", 4, 1, sym) + struct.pack(">BBxxI", 4, 0, sym)
    return out


def colour_runs():
    """RUN pixels of the colour, as 32-bit pixels in any byte order a viewer
    may ask for, with the spare byte 0 or 255."""
    r, g, b = COLOUR
    runs = []
    for x in (0, 0xff):
        runs += [bytes(p) * RUN for p in ((r, g, b, x), (b, g, r, x), (x, r, g, b),
                                          (x, b, g, r))]
    return runs


def session_capture(args, viewer_options):
    """Runs one session with args; returns (to_server, to_viewer) bytes."""
    port = vnc.free_port()
    with Session(outputs=["800x600"], args=vnc.vnc_args(port, *args)) as s:
        out = s.tmp / "typed.txt"
        script = 'read l; printf "%%s\\n" "$l" > %s.tmp && mv %s.tmp %s; exec sleep 1000' % (
            shlex.quote(str(out)), shlex.quote(str(out)), shlex.quote(str(out)))
        s.spawn_x([tool("xterm"), "-geometry", "50x8+20+20", "-title", "secret",
                   "-e", "sh", "-c", script])
        xw = s.wait_window(app_id="XTerm", kind="x11",
                           where=lambda w: w["width"] > 0 and w["height"] > 0)
        s.colour_window_at(COLOUR, (400, 300), (350, 250), "solid", "org.oriel.test.solid")
        vnc.wait_listening(s, vnc.tcp(port))
        options = dict(viewer_options)
        if options.pop("ca", None):
            options["ca"], _fp, _made = vnc.certificate(s)
        proxy = vnc.RecordingProxy(vnc.tcp(port))
        try:
            v = vnc.Viewer(s, proxy.address, encodings="raw", **options)
            v.wait_connected()
            v.wait_colour((350, 250, 400, 300), COLOUR,
                          what="the colour window in the viewer's framebuffer")
            v.click(xw["x"] + xw["width"] // 2, xw["y"] + xw["height"] // 2)
            s.wait_window(id=xw["id"], where=lambda w: w["focused"],
                          what="xterm focused by the viewer's click")
            wid = s.wait_x_window("XTerm")

            s.wait_x_focus(wid)
            v.type(SECRET)
            v.keysym("Return")

            def written():
                if not out.exists():
                    raise NotYet("%s not written yet" % out)
                return out.read_text()
            expect_eq(s.wait_for(written, what="xterm to read the secret"), SECRET + "\n",
                      "the line xterm read")
            v.close()
            return proxy.recorded()
        finally:
            proxy.close()


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-vnc-capture-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("alice", PASSWORD)])
        secret = vnc.write_secret_in(d, "alice", PASSWORD)

        up, down = session_capture(["--vnc-users", users],
                                   {"user": "alice", "password_file": secret, "ca": True,
                                    "security": "vencrypt"})
        harness.log("VeNCrypt capture: %d bytes to oriel, %d to the viewer"
                    % (len(up), len(down)))
        expect(len(down) > 800 * 600 * 4,
               "the capture holds less than one raw frame (%d bytes)" % len(down))
        expect(key_events(SECRET) not in up, "the secret's KeyEvents are in the "
               "VeNCrypt capture")
        expect(SECRET.encode() not in up + down, "the secret is in the VeNCrypt capture")
        expect(PASSWORD.encode() not in up, "the password is in the VeNCrypt capture")
        found = [run[:4].hex() for run in colour_runs() if run in down]
        expect(not found, "runs of the colour's pixels (%s) are in the VeNCrypt capture"
               % found)

        # The control: the same in the clear.
        up, down = session_capture([], {"security": "none"})
        harness.log("plain capture: %d bytes to oriel, %d to the viewer"
                    % (len(up), len(down)))
        expect(key_events(SECRET) in up,
               "the control failed: the secret's KeyEvents are not in the plain capture")
        expect(any(run in down for run in colour_runs()),
               "the control failed: no run of the colour in the plain capture")


if __name__ == "__main__":
    harness.run(main)
