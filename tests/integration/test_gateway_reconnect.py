#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""alice's session outlives her viewers and the gateway:

- she logs in through the gateway with the test viewer, clicks into her
  xterm and types a line (its shell is `cat > ~/typed.txt`): the file gets
  exactly that line;
- she disconnects and logs in again: the same oriel (pid) serves her, and
  the xterm's pixels are the ones she left (her line still shows);
- the serving gateway is killed (SIGKILL): her session goes on; a gateway
  started afresh attaches her to it (same pid) and she sees her line.
"""

import os
import signal

import gateway
import harness
from harness import NotYet, expect, expect_eq, log

TYPED = "typed through the gateway 42"


def xterm_pixels(img, box):
    return [rgb for _xy, rgb in img.pixels(box)]


def main():
    host = gateway.Host(("alice",), config="[session]\ncommand = %s\n" %
                        gateway.XTERM_COMMAND)
    try:
        front = gateway.Front(host)
        v = front.viewer("alice", name="first")
        v.wait_connected()
        box = v.wait_framebuffer(gateway.xterm_box, timeout=30, what="her xterm")
        pid = host.sessions()[0]["pid"]
        blank = v.framebuffer()
        v.click(box[0] + box[2] // 2, box[1] + box[3] // 2)
        v.type(TYPED)
        v.keysym("Return")
        typed = os.path.join(host.home("alice"), "typed.txt")

        def written():
            try:
                text = open(typed).read()
            except FileNotFoundError:
                raise NotYet("no %s yet" % typed)
            return text or None
        expect_eq(front.wait_for(written, what="her xterm to take the line"), TYPED + "\n",
                  "the line her xterm's shell read")

        def shows_line(img):
            # The echoed line: pixels in the xterm that the blank one lacked.
            changed = sum(1 for a, b in zip(xterm_pixels(img, box), xterm_pixels(blank, box))
                          if a != b)
            if changed < 100:
                raise NotYet("only %d pixels of the xterm changed" % changed)
            return img
        v.wait_framebuffer(shows_line, what="her line in the xterm")
        # The echo may still be drawing: what she left is the settled picture.
        v.quiesce()
        before = v.framebuffer()
        v.send("quit")
        v.wait(20)
        front.wait_for(lambda: host.sessions()[0]["clients"] == "0" or
                       gateway._not_yet("her session still counts a client"),
                       what="her session to count no client")

        def same_xterm(viewer, what):
            def check(img):
                if xterm_pixels(img, box) != xterm_pixels(before, box):
                    raise NotYet("the xterm's pixels differ from those she left")
                return img
            viewer.wait_connected()
            viewer.wait_framebuffer(check, timeout=30, what=what)

        again = front.viewer("alice", name="again")
        same_xterm(again, "her line after she logged in again")
        expect_eq([r["pid"] for r in host.sessions()], [pid], "her session's oriel pid")
        again.send("quit")
        again.wait(20)

        front.stop(signal.SIGKILL)
        expect(harness.pid_alive(pid), "her oriel died with the gateway")
        expect_eq([(r["pid"], r["clients"]) for r in host.sessions()], [(pid, "0")],
                  "--list after the gateway was killed")
        log("the gateway is killed; her oriel %d goes on" % pid)
        second = gateway.Front(host)
        later = second.viewer("alice", name="after-restart")
        same_xterm(later, "her line through the restarted gateway")
        expect_eq([(r["pid"], r["clients"]) for r in host.sessions()], [(pid, "1")],
                  "--list through the restarted gateway: the same oriel, with her viewer")
        later.send("quit")
        later.wait(20)
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
