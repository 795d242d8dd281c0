#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--vnc-output, --vnc-max-clients and --vnc-view-only do what they say.

- Two outputs, 640x480 and 800x600.  `--vnc-output layout` on one port
  serves the whole layout (the outputs' bounding box) and shows both
  outputs' pixels where they are; a viewer's clicks land on the window
  shown under them on either output; when an output grows, viewers get the
  new bounding box and its pixels.  `--vnc-output NAME` on a second
  session serves just the second output, at its size.
- `--vnc-max-clients 2`: a third viewer is turned away (it never stays
  connected) while the first two keep working.
- `--vnc-view-only`: a viewer's click on the lower of two overlapping
  windows neither raises nor focuses it (observed for 2 s), while the
  same click through orielctl does.
"""
import time

import harness
import vnc
from harness import NotYet, Session, expect, expect_eq, geometry

A = (0xd0, 0x20, 0x40)
B = (0x30, 0x50, 0xe0)


def bounding_box(outs):
    x0 = min(o["x"] for o in outs)
    y0 = min(o["y"] for o in outs)
    x1 = max(o["x"] + o["width"] for o in outs)
    y1 = max(o["y"] + o["height"] for o in outs)
    return x0, y0, x1 - x0, y1 - y0


def main():
    # The whole layout, and two-viewer limit.
    port = vnc.free_port()
    with Session(outputs=["640x480", "800x600"],
                 args=vnc.vnc_args(port, "--vnc-output", "layout",
                                   "--vnc-max-clients", "2")) as s:
        outs = s.outputs()
        expect_eq(len(outs), 2, "number of outputs")
        box = bounding_box(outs)
        vnc.wait_listening(s, vnc.tcp(port))
        v1 = vnc.Viewer(s, vnc.tcp(port), name="v1", encodings="raw")
        expect_eq(v1.wait_connected(), box[2:], "framebuffer size with --vnc-output layout")
        v1.wait_line("frame")
        v2 = vnc.Viewer(s, vnc.tcp(port), name="v2", encodings="raw")
        v2.wait_connected()
        v2.wait_line("frame")

        v3 = vnc.Viewer(s, vnc.tcp(port), name="v3", encodings="raw")
        try:
            v3.wait(10)
        except harness.TestFailure:
            raise harness.TestFailure("a third viewer stayed connected with "
                                      "--vnc-max-clients 2: %r" % v3.lines[-5:])
        expect(v3.proc.returncode != 0, "the third viewer exited with status 0")

        # A window on each output; clicks from the viewer land in the
        # layout where the framebuffer shows them.
        a = s.spawn_colour(A, size=(200, 150), title="A", app_id="org.oriel.test.a")
        a.wait_ready(size=(200, 150))
        wa = s.wait_window(app_id="org.oriel.test.a")
        b = s.spawn_colour(B, size=(200, 150), title="B", app_id="org.oriel.test.b")
        b.wait_ready(size=(200, 150))
        wb = s.wait_window(app_id="org.oriel.test.b")
        place = {wa["id"]: (outs[0]["x"] + 100, outs[0]["y"] + 100),
                 wb["id"]: (outs[1]["x"] + 150, outs[1]["y"] + 200)}
        for wid, (x, y) in place.items():
            s.orielctl("move", wid, x, y)
            s.wait_window(id=wid, where=lambda w, x=x, y=y: (w["x"], w["y"]) == (x, y))
        for w in (wa, wb, wa):
            x, y = place[w["id"]]
            v1.click(x + 100 - box[0], y + 75 - box[1])
            s.wait_window(id=w["id"], where=lambda w: w["focused"],
                          what="%s focused by a click at its place in the layout "
                          "framebuffer" % w["title"])

        # Both outputs' pixels are in the layout framebuffer.
        def same_as_screenshots(v, outs, box):
            exclude = s.park_pointer()

            def check():
                img = v.framebuffer()
                for o in outs:
                    shot = s.screenshot(output=o["name"])
                    rect = (o["x"] - box[0], o["y"] - box[1], o["width"], o["height"])
                    sub = crop(img, rect)
                    ex = (exclude[0] - o["x"], exclude[1] - o["y"], exclude[2], exclude[3])
                    try:
                        vnc.expect_same_pixels(sub, shot, exclude=ex,
                                               what="layout framebuffer over %s" % o["name"])
                    except harness.TestFailure as e:
                        raise NotYet(str(e))
                return True
            s.wait_for(check, what="the layout framebuffer of %s to match the "
                       "outputs' screenshots" % v.name)
        same_as_screenshots(v1, outs, box)

        # The layout changes (an output grows): the framebuffer follows.
        m = v2.mark()
        s.orielctl("output-size", outs[1]["name"], "1000x700", json=False)

        def grown():
            o = s.outputs()
            if (o[1]["width"], o[1]["height"]) != (1000, 700):
                raise NotYet("outputs: %r" % o)
            return o
        outs = s.wait_for(grown, what="the second output to be 1000x700")
        box = bounding_box(outs)
        want = "resize %d %d" % box[2:]
        v2.wait_line(lambda l: l == want, since=m,
                     what="%r at v2 after the layout grew" % want)
        same_as_screenshots(v2, outs, box)
        for v in (v1, v2):
            expect(v.alive(), "%s disconnected" % v.name)

    # One named output (names are stable for the same --output list).
    second = outs[1]["name"]
    port = vnc.free_port()
    with Session(outputs=["640x480", "800x600"],
                 args=vnc.vnc_args(port, "--vnc-output", second)) as s:
        o = s.output(second)
        vnc.wait_listening(s, vnc.tcp(port))
        exclude = s.park_pointer()
        img = vnc.snapshot(s, vnc.tcp(port), encodings="raw")
        shot = s.screenshot(output=second)
        ex = (exclude[0] - o["x"], exclude[1] - o["y"], exclude[2], exclude[3])
        vnc.expect_same_pixels(img, shot, exclude=ex,
                               what="framebuffer with --vnc-output %s" % second)

    # View-only for everyone.
    port = vnc.free_port()
    with Session(outputs=["1024x768"],
                 args=vnc.vnc_args(port, "--vnc-view-only")) as s:
        a = s.spawn_colour(A, size=(300, 200), title="A", app_id="org.oriel.test.a")
        a.wait_ready(size=(300, 200))
        wa = s.wait_window(app_id="org.oriel.test.a")
        b = s.spawn_colour(B, size=(300, 200), title="B", app_id="org.oriel.test.b")
        b.wait_ready(size=(300, 200))
        wb = s.wait_window(app_id="org.oriel.test.b")
        s.orielctl("move", wa["id"], 100, 100)
        s.orielctl("move", wb["id"], 250, 200)
        s.wait_window(id=wb["id"], where=lambda w: (w["x"], w["y"]) == (250, 200))
        s.wait_window(id=wa["id"], where=lambda w: (w["x"], w["y"]) == (100, 100))
        expect_eq(s.windows()[-1]["id"], wb["id"], "B on top before the clicks")
        vnc.wait_listening(s, vnc.tcp(port))
        v = vnc.Viewer(s, vnc.tcp(port))
        v.wait_connected()
        v.wait_line("frame")
        v.click(120, 120)
        time.sleep(2)  # observation window: nothing may happen
        wins = s.windows()
        expect(wins[-1]["id"] == wb["id"] and not s.window_by(id=wa["id"], windows=wins)["focused"],
               "a --vnc-view-only viewer's click raised or focused A: %s"
               % harness.brief_windows(wins))
        s.click(120, 120)

        def raised():
            wins = s.windows()
            if wins[-1]["id"] != wa["id"]:
                raise NotYet(harness.brief_windows(wins))
            return True
        s.wait_for(raised, what="orielctl's click on A to raise it (control)")
        expect(v.alive(), "the view-only viewer was disconnected")


def crop(img, rect):
    x, y, w, h = rect
    rows = [img.data[(y + r) * img.stride + x * img.bpp:
                     (y + r) * img.stride + (x + w) * img.bpp] for r in range(h)]
    return harness.Image(w, h, img.bpp, b"".join(rows))


if __name__ == "__main__":
    harness.run(main)
