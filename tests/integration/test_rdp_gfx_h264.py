#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""H.264 through the graphics pipeline: AVC420 and AVC444v2 (x264).

oriel serves RDP with a users file and --rdp-codec avc444 (H.264 for
every client that takes it, AVC444v2 for those that take that too, on a
machine of any speed; test_rdp_avc444_auto covers auto's switching);
the session shows an xterm full of text and a colour window.
oriel-test-rdpclient (libfreerdp-client2, FreeRDP's software GDI) logs on
asking for AVC420, then for AVC444. Each time:
- oriel logs the codec it chose (AVC420, AVC444v2) and the client names
  the codec its frames arrive in (gfx-avc420, gfx-avc444v2);
- once the picture is still, the client's screen equals oriel's own
  screenshot pixel for pixel, text included: what H.264 sent lossily was
  refined losslessly (the pointer's corner aside: RDP sends it as a shape);
- the colour window moved shows at its new place within H.264's
  tolerance, then, once still, exactly again;
- through AVC444v2, a terminal of grey text scrolling over the whole
  screen comes as luma pictures alone, which 4:2:0 carries in full, and
  shows exactly once still;
- with nothing changing, no frame and no byte comes.
Then xfreerdp with /gfx:avc444 gets AVC444v2 and shows the window at its
place, and after a move, exactly. Last, bench/apps/animate repaints the
whole screen (a colourful scrolling pattern under fresh grain, its frame
counter in black and white blocks): through AVC420 and AVC444v2 alike,
the client reads ever new frame numbers from the decoded frames while
everything moves, which wrong colours or a misdecoded stream would not
give; through AVC444v2 those frames, whose grain differs pixel by pixel
in colour, carry their chroma picture.
"""
import os
import signal
import tempfile
import time
from pathlib import Path

import harness
import rdp
import vnc
from harness import NotYet, Session, expect
from test_rdp_stalled_client import build_animate

COLOUR = (0x20, 0xa0, 0x60)
SIZE = (300, 200)
OUTPUT = (1024, 768)
PASSWORD = "h264-Pass-7261"
IDLE = 2.0
COUNTERS = 10
TEXTSCROLL = Path(__file__).resolve().parents[2] / "bench" / "apps" / "textscroll.c"
TEXT = "\n".join("%3d  The quick brown fox jumps over the lazy dog: 0123456789 "
                 "{[(<*#%%&@>)]}" % n for n in range(30))


def text_xterm(s, d):
    """An xterm showing TEXT, black on white (core fonts: sharp edges)."""
    path = d / "text.txt"
    path.write_text(TEXT + "\n")
    s.spawn_x([harness.tool("xterm"), "-bg", "white", "-fg", "black",
               "-geometry", "90x30+0+0", "-title", "text", "-e", "sh", "-c",
               "cat %s; exec cat" % path])
    return s.wait_window(app_id="XTerm", kind="x11", title="text",
                         where=lambda w: w["width"] > 0 and w["height"] > 0)


def exact(s, client, pointer_box, what):
    """Once still, the client shows what oriel's screenshot shows."""
    rdp.wait_settled(s, client)
    vnc.expect_same_pixels(client.framebuffer(), s.screenshot(), exclude=pointer_box,
                           what="%s, once still" % what)


def move_and_check(s, client, window, place, pointer_box, what):
    s.orielctl("move", window["id"], *place)
    inner = (place[0] + 4, place[1] + 4, SIZE[0] - 8, SIZE[1] - 8)
    client.wait_colour(inner, COLOUR, tolerance=16, what="%s: the window moved" % what)
    exact(s, client, pointer_box, "%s, the window moved" % what)


def build_textscroll(d):
    exe = d / "textscroll"
    cmd = "cc -O2 -o %s %s -lxcb" % (exe, TEXTSCROLL)
    expect(os.system(cmd) == 0, "cannot build %s" % TEXTSCROLL)
    return str(exe)


def luma_alone_text(s, client, d, pointer_box):
    """AVC444v2: a terminal of grey text scrolling over the whole screen
    (bench/apps/textscroll, full screen) goes as luma pictures alone, and
    shows exactly once still."""
    text = d / "scroll.txt"
    text.write_text("\n".join("%5d  grey text that scrolls: The quick brown fox jumps over "
                              "the lazy dog {[(<*#%%&@>)]}" % n for n in range(3000)) + "\n")
    start = client.stats()
    app = s.spawn_x([build_textscroll(d), "--text", text, "--fps", "30"])

    def luma_frames(since, count):
        def enough():
            now = client.stats()
            if now["avc444_luma"] - since["avc444_luma"] < count:
                raise NotYet("%d luma-only AVC444 frames"
                             % (now["avc444_luma"] - since["avc444_luma"]))
            return now
        return s.wait_for(enough, what="%d luma-only AVC444 frames" % count)
    # Its first frame covers the coloured windows: both pictures.
    scrolling = luma_frames(start, 5)
    scrolled = luma_frames(scrolling, 20)
    harness.log("grey text scrolling: %d AVC444 frames with both pictures, %d with the luma "
                "picture alone" % (scrolled["avc444_both"] - scrolling["avc444_both"],
                                   scrolled["avc444_luma"] - scrolling["avc444_luma"]))
    expect(scrolled["avc444_both"] == scrolling["avc444_both"],
           "grey text scrolling came with %d chroma pictures"
           % (scrolled["avc444_both"] - scrolling["avc444_both"]))
    mark = len(app.log())
    app.proc.send_signal(signal.SIGUSR1)
    s.wait_for(lambda: "paused" in app.log()[mark:] or NotYet("not paused"),
               what="textscroll to pause")
    exact(s, client, pointer_box, "--gfx avc444, grey text scrolled")
    app.proc.terminate()
    app.proc.wait(timeout=10)
    exact(s, client, pointer_box, "--gfx avc444, the terminal closed")


def chosen_codec(s, before):
    def logged():
        lines = [l for l in s.log_text().splitlines() if "graphics pipeline" in l][before:]
        if not lines:
            raise harness.NotYet("oriel logged no graphics pipeline")
        return lines[0]
    return s.wait_for(logged, what="oriel to log the pipeline's codec")


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-rdp-h264-") as d:
        d = Path(d)
        users = vnc.write_users_file(d, [("hugo", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["%dx%d" % OUTPUT],
                     args=rdp.rdp_args(port, "--rdp-users", users, "--rdp-codec", "avc444")) \
                as s:
            text_xterm(s, d)
            _, window = s.colour_window_at(COLOUR, SIZE, (600, 400), "colour",
                                           "org.oriel.test.h")
            rdp.wait_listening(s, port)
            pointer_box = s.park_pointer()
            secret = rdp.write_secret(s, PASSWORD)
            for gfx, logged, codec, place in (("avc420", "AVC420", "gfx-avc420", (500, 300)),
                                              ("avc444", "AVC444v2", "gfx-avc444v2", (650, 450))):
                before = s.log_text().count("graphics pipeline")
                client = rdp.RdpClient(s, port, name="watch-" + gfx, user="hugo",
                                       password_file=secret, size=OUTPUT, gfx=gfx)
                client.wait_connected()
                line = chosen_codec(s, before)
                expect(line.endswith(logged), "--gfx %s: oriel chose %r" % (gfx, line))
                client.wait_line(lambda l: l == "codec " + codec,
                                 what="a frame in %s" % codec)
                exact(s, client, pointer_box, "--gfx %s" % gfx)
                move_and_check(s, client, window, place, pointer_box, "--gfx %s" % gfx)
                if gfx == "avc444":
                    luma_alone_text(s, client, d, pointer_box)
                codecs = client.codecs()
                harness.log("--gfx %s: codecs %s" % (gfx, codecs))
                expect(codec in codecs and "gfx-planar" in codecs,
                       "--gfx %s: the frames came as %s" % (gfx, codecs))
                expect(not [c for c in codecs if c.startswith("gfx-avc") and c != codec],
                       "--gfx %s: another H.264 codec came: %s" % (gfx, codecs))

                # Idle: nothing changes, nothing comes.
                mark = client.mark()
                stats = client.stats()
                time.sleep(IDLE)  # the measurement window
                frames = client.lines_since(mark, "frame")
                expect(not frames, "--gfx %s: %d paints while idle" % (gfx, len(frames)))
                expect(client.stats()["bytes"] == stats["bytes"],
                       "--gfx %s: bytes came while idle" % gfx)
                client.close()

            before = s.log_text().count("graphics pipeline")
            xvfb = rdp.Xvfb(s)
            try:
                client = rdp.XFreeRDP(s, xvfb, port, "hugo", PASSWORD,
                                      ["/size:1024x768", "/gfx:avc444"], name="xfreerdp-avc444")
                try:
                    place = (500, 300)
                    s.orielctl("move", window["id"], *place)
                    rdp.wait_shows_colour(s, xvfb, client, COLOUR, place, SIZE, 16)
                    line = chosen_codec(s, before)
                    expect(line.endswith("AVC444v2"), "xfreerdp /gfx:avc444 got %r" % line)
                    place = (650, 450)
                    s.orielctl("move", window["id"], *place)
                    rdp.wait_shows_colour(s, xvfb, client, COLOUR, place, SIZE, 16)
                    rdp.wait_shows_colour(s, xvfb, client, COLOUR, place, SIZE, 0)
                finally:
                    client.close()
            finally:
                xvfb.close()

            s.spawn_x([build_animate(d), "--size", "%dx%d" % OUTPUT, "--fps", "30", "--noise"])
            for gfx, codec in (("avc420", "gfx-avc420"), ("avc444", "gfx-avc444v2")):
                client = rdp.RdpClient(s, port, name="animate-" + gfx, user="hugo",
                                       password_file=secret, size=OUTPUT, gfx=gfx,
                                       extra=["--counter"])
                client.wait_connected()
                client.wait_line(lambda l: l == "codec " + codec, what="a frame in " + codec)
                start = client.stats()

                def counted():
                    n = client.stats()["counters"]
                    if n < COUNTERS:
                        raise NotYet("%d frame numbers read" % n)
                    return n
                s.wait_for(counted, what="--gfx %s: %d frame numbers read from moving frames"
                           % (gfx, COUNTERS))
                if gfx == "avc444":
                    both = client.stats()["avc444_both"] - start["avc444_both"]
                    expect(both >= COUNTERS - 1, "--gfx avc444: the colourful frames came "
                           "with only %d chroma pictures" % both)
                client.close()
            s.check_alive()


if __name__ == "__main__":
    harness.run(main)
