#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A client whose layout has several monitors gets one output per monitor.

oriel runs headless with one 1024x768 output. oriel-test-rdpclient logs
on with two monitors (Client Monitor Data, as xfreerdp /multimon sends
it): 1024x768 at 0,0 (primary) and 800x600 at 1024,0.
- oriel has two outputs with those sizes at those places (`orielctl
  outputs`), and X apps see two RandR monitors (`xrandr --listmonitors`);
- the client's desktop is their bounding box, 1824x768;
- an X window of a known colour on the second monitor shows in the
  client's decoded desktop at its place: classic bitmaps, then the
  graphics pipeline;
- a click at a desktop coordinate on the second monitor focuses the X
  window there, and the X pointer is at that place;
- Display Control layouts resize and add outputs, and take them away
  again; a monitor left of the primary puts the layout's corner at 0,0,
  where X apps reach it; an overlapping layout is refused for that client with a log
  line, and the outputs stay;
- the outputs stay when the client goes, and the next client finds them
  (the graphics pipeline this time, and its Display Control layouts);
- xfreerdp /multimon, in an Xvfb with two RandR monitors, shows the window
  on its second monitor.
"""
import re

import harness
import rdp
import vnc
import xclient
from harness import NotYet, Session, expect, expect_eq, tool

COLOUR = (0xc0, 0x40, 0x30)
OTHER = (0x30, 0x60, 0xb0)
PRIMARY = (1024, 768, 0, 0)
SECOND = (800, 600, 1024, 0)


def wait_outputs(s, want, what):
    """Until `orielctl outputs` lists exactly want: [(w, h, x, y), ...] by x."""
    def check():
        got = sorted(((o["width"], o["height"], o["x"], o["y"]) for o in s.outputs()),
                     key=lambda m: (m[2], m[3]))
        if got != sorted(want, key=lambda m: (m[2], m[3])):
            raise NotYet("outputs %r" % got)
        return True
    s.wait_for(check, what=what)


def wait_randr(s, want):
    def check():
        out = s.x_tool(tool("xrandr"), "--listmonitors").stdout
        found = sorted((int(w), int(h), int(x), int(y)) for w, h, x, y in re.findall(
            r"(\d+)/\d+x(\d+)/\d+\+(-?\d+)\+(-?\d+)", out))
        if found != sorted(want):
            raise NotYet("xrandr --listmonitors: %r" % found)
        return True
    s.wait_for(check, what="RandR to list the monitors %r" % (want,))


def inner(win, margin=6):
    return (win["x"] + margin, win["y"] + margin, win["width"] - 2 * margin,
            win["height"] - 2 * margin)


def main():
    port = vnc.free_port()
    with Session(outputs=["%dx%d" % PRIMARY[:2]], args=rdp.rdp_args(port)) as s:
        rdp.wait_listening(s, port)
        s.park_pointer()
        secret = rdp.write_secret(s, "unused")
        account = dict(user="mon", password_file=secret, monitors=[PRIMARY, SECOND])

        client = rdp.RdpClient(s, port, name="classic", **account)
        expect_eq(client.wait_connected()[:2], (1824, 768),
                  "the client's desktop (the monitors' bounding box)")
        client.wait_line("monitors 2")
        wait_outputs(s, [PRIMARY, SECOND], "an output per monitor")
        log = s.log_text()
        expect("has 2 monitors (at logon)" in log, "oriel did not log the client's monitors")
        wait_randr(s, [PRIMARY, SECOND])

        # A colour X window on the second monitor; another on the first takes the focus.
        xclient.spawn(s, "right", "--colour", harness.colour_hex(COLOUR),
                      "--size", "240x160", "--position", "1200,200")
        win = s.wait_window(title="right", where=lambda w: w["width"] == 240)
        expect(win["x"] >= SECOND[2], "the window is not on the second output: %r" % (win,))
        client.wait_colour(inner(win), COLOUR, what="the X window on the second monitor "
                           "in the client's desktop (classic bitmaps)")
        xclient.spawn(s, "left", "--colour", harness.colour_hex(OTHER), "--size", "200x120",
                      "--position", "100,100")
        s.wait_window(title="left", where=lambda w: w["focused"])

        # A click at a desktop coordinate on the second monitor.
        cx, cy = win["x"] + 120, win["y"] + 80
        client.send("click %d %d" % (cx, cy))
        s.wait_window(title="right", where=lambda w: w["focused"],
                      what="the window on the second monitor focused by the client's click")

        def pointer_there():
            out = s.x_tool(tool("xdotool"), "getmouselocation").stdout
            m = re.search(r"x:(-?\d+) y:(-?\d+)", out)
            if not m or (int(m.group(1)), int(m.group(2))) != (cx, cy):
                raise NotYet("the X pointer: %s" % out.strip())
            return True
        s.wait_for(pointer_there, what="the X pointer at the click")

        # Display Control: the second monitor smaller, a third one.
        client.wait_line("disp-ready")
        third = [PRIMARY, (640, 480, 1024, 0), (800, 600, 1664, 0)]
        client.send("layout " + ",".join("%dx%d+%d+%d" % m for m in third))
        wait_outputs(s, third, "Display Control to resize one output and add another")
        wait_randr(s, third)
        client.wait_line(lambda l: l == "resize 2464 768", what="the desktop to grow")

        # Overlapping monitors: refused, nothing changes.
        client.send("layout 1024x768+0+0,800x600+1000+0")
        def refused():
            if "monitors 1 and 2 overlap" not in s.log_text():
                raise NotYet("no refusal logged")
            return True
        s.wait_for(refused, what="the overlapping layout to be refused")
        wait_outputs(s, third, "the outputs to stay")

        # A monitor left of the primary: the layout starts at 0,0, where X
        # apps reach it, and the primary moves right.
        client.send("layout 1024x768+0+0,640x480-640+0")
        wait_outputs(s, [(640, 480, 0, 0), (1024, 768, 640, 0)],
                     "the monitor left of the primary at 0,0")
        wait_randr(s, [(640, 480, 0, 0), (1024, 768, 640, 0)])
        client.wait_line(lambda l: l == "resize 1664 768", what="the desktop to shrink")

        client.send("layout " + ",".join("%dx%d+%d+%d" % m for m in (PRIMARY, SECOND)))
        wait_outputs(s, [PRIMARY, SECOND], "Display Control to bring back the first layout")
        client.close()

        # The next client (the graphics pipeline) finds the outputs as they were.
        wait_outputs(s, [PRIMARY, SECOND], "the outputs to stay after the client left")
        win = s.wait_window(title="right")
        client = rdp.RdpClient(s, port, name="gfx", gfx="avc420", **account)
        expect_eq(client.wait_connected()[:2], (1824, 768), "the desktop, reconnected")
        client.wait_colour(inner(win), COLOUR, tolerance=16,
                           what="the X window on the second monitor (graphics pipeline)")
        wait_outputs(s, [PRIMARY, SECOND], "the same outputs, reused")
        # Display Control through the graphics pipeline: a graphics reset
        # with the new monitors, and the window still at its place.
        client.wait_line("disp-ready")
        client.send("layout " + ",".join("%dx%d+%d+%d" % m for m in third))
        wait_outputs(s, third, "Display Control to add the third output again")

        def wider(img):
            if (img.width, img.height) != (2464, 768):
                raise NotYet("the decoded desktop is %dx%d" % (img.width, img.height))
            return img
        client.wait_framebuffer(wider, what="the client's desktop to be 2464x768")
        client.wait_colour(inner(win), COLOUR, tolerance=16,
                           what="the X window after the graphics reset")
        client.send("layout " + ",".join("%dx%d+%d+%d" % m for m in (PRIMARY, SECOND)))
        wait_outputs(s, [PRIMARY, SECOND], "two outputs again")
        client.close()

        # xfreerdp /multimon, in an Xvfb whose RandR has the two monitors.
        xvfb = rdp.Xvfb(s, size=(PRIMARY[0] + SECOND[0], PRIMARY[1]))
        try:
            for name, (w, h, x, y) in (("A", PRIMARY), ("B", SECOND)):
                rdp.xvfb_tool(xvfb, ["xrandr", "--setmonitor", name,
                                         "%d/%dx%d/%d+%d+%d" % (w, w // 4, h, h // 4, x, y),
                                         "screen" if name == "A" else "none"])
            xf = rdp.XFreeRDP(s, xvfb, port, "mon", "unused", ["/multimon"], name="xfreerdp")
            try:
                def shows():
                    img = xvfb.screen()
                    rect = inner(win)
                    n = img.count_colour(rect, COLOUR, tolerance=16)
                    if n < rect[2] * rect[3] * 0.98:
                        raise NotYet("xfreerdp shows %s" % img.describe(rect))
                    return True
                s.wait_for(shows, what="xfreerdp /multimon to show the window on its "
                           "second monitor")
                wait_outputs(s, [PRIMARY, SECOND], "xfreerdp's monitors as the outputs")
            finally:
                xf.close()
        finally:
            xvfb.close()
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
