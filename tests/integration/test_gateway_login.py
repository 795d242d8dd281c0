#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""alice logs in through oriel-gateway's VNC port with two real viewers,
and sees her session's xterm:

- the libvncclient test viewer (VeNCrypt X509Plain, pinned to the
  gateway's certificate with --ca): its framebuffer, at her session's
  output size, shows the xterm's window (its background colour, over an
  area of its size); the session runs as her, and --list counts the viewer;
  reached over VNC only, her session has started no RDP server (it would
  hold a copy of her desktop for nothing);
- TigerVNC's viewer (xtigervncviewer -SecurityTypes X509Plain -X509CA, the
  account in VNC_USERNAME and VNC_PASSWORD), in an Xvfb of the test's own:
  its window shows the same xterm, and her second login shares the first
  one's session (the same oriel pid).
"""

import gateway
import harness
import vnc
from harness import NotYet, TestFailure, expect, expect_eq, log, tool

OUTPUT = (1280, 720)


def main():
    viewer_exe = tool("xtigervncviewer")
    tool("Xvfb")
    tool("xwd")
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\noutput = %dx%d\n" % (
        gateway.XTERM_COMMAND, OUTPUT[0], OUTPUT[1]))
    try:
        front = gateway.Front(host)
        v = front.viewer("alice", name="libvncclient")
        expect_eq(v.wait_connected(), OUTPUT, "the framebuffer's size (her session's output)")
        expect_eq(v.lines_since(0, "security"), ["security 19 262"],
                  "the security type used (VeNCrypt X509Plain)")
        box = gateway.wait_her_xterm(v)
        row = host.her_session("alice")
        pid = row["pid"]
        session_log = host.session_log(row)
        expect("VNC: " in session_log, "her session logs VNC")
        expect("RDP: serving" not in session_log,
               "her session, reached over VNC only, started an RDP server")
        v.send("quit")
        v.wait(20)

        x = vnc.Xvfb(front, size=(OUTPUT[0] + 200, OUTPUT[1] + 200))
        home = host.base / "tiger-home"
        home.mkdir()
        tiger = front.spawn([viewer_exe, "-SecurityTypes", "X509Plain", "-X509CA",
                             front.cert, "127.0.0.1::%d" % front.port], name="tigervnc",
                            env={"DISPLAY": x.display, "HOME": str(home),
                                 "VNC_USERNAME": host.users["alice"],
                                 "VNC_PASSWORD": host.passwords["alice"]})

        def shows_xterm():
            if not tiger.alive():
                raise TestFailure("xtigervncviewer exited (%s):\n%s" % (
                    tiger.proc.returncode, tiger.log()[-3000:]))
            return gateway.xterm_box(x.screenshot())
        tbox = front.wait_for(shows_xterm, 40, "TigerVNC's window to show her xterm")
        log("TigerVNC's window shows her xterm at %r" % (tbox,))
        expect_eq((tbox[2], tbox[3]), (box[2], box[3]), "the xterm's size in TigerVNC's window")
        expect('"%s" logged in from 127.0.0.1' % host.users["alice"] in front.log(),
               "the gateway logs her login")
        rows = host.sessions()
        expect_eq([(r["pid"], r["clients"]) for r in rows], [(pid, "1")],
                  "--list with TigerVNC's viewer: her one session, one client")
        expect(host.passwords["alice"] not in front.log(), "her password is in the log")
        tiger.kill()
        tiger.wait(10)
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
