#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Thumbnails in oriel's permission prompt (Permission.Ask with busctl,
the source ids the portal sends): "monitor:NAME" shows what the output
showed when the prompt came up, "window:ID" the window's own content,
each scaled down into a framed box at the left of its row.

- Over a green window on an 800x600 output: the window's row shows a
  picture that is all green; the output's row shows a picture of the
  output's aspect with the green window where the window is, scaled by
  the picture's size over the output's (within a pixel and a half), and
  no green elsewhere.
- An id that is neither (here "virtual") gets no thumbnail.
- Eight rows on 800x600 get smaller thumbnails, still framed; the output
  shrunk to 640x360 under the prompt takes them away, the rows keep
  their labels and the prompt stays usable: Allow is on the output and a
  click on it answers.
"""
import tempfile
from pathlib import Path

import harness
import prompt
from harness import NotYet, Session, expect, expect_eq, geometry, T

GREEN = (0x30, 0xb0, 0x50)
FRAME = (0x8a, 0x8a, 0x96)  # prompt.c thumbnail_frame_colour
OUTPUT = (800, 600)


def close(px, rgb, tolerance=3):
    return all(abs(px[c] - rgb[c]) <= tolerance for c in range(3))


def inside(outer, b):
    return (outer[0] <= b[0] and outer[1] <= b[1] and b[0] + b[2] <= outer[0] + outer[2]
            and b[1] + b[3] <= outer[1] + outer[3])


def pictures(img):
    """The thumbnails' pictures (x, y, w, h), top to bottom: what their
    frames hold."""
    frames = prompt.bands(img, FRAME, min_width=2)
    return [(x + 1, y + 1, w - 2, h - 2) for x, y, w, h in frames]


def green_box(img, rect):
    """The bounding box of the green pixels in rect, or None."""
    xs, ys = [], []
    for (x, y), px in img.pixels(rect):
        if close(px, GREEN):
            xs.append(x)
            ys.append(y)
    if not xs:
        return None
    return (min(xs), min(ys), max(xs) + 1 - min(xs), max(ys) + 1 - min(ys))


def wait_pictures(s, n, what):
    def check():
        img = prompt.wait_shown(s, what)
        found = pictures(img)
        if len(found) != n:
            raise NotYet("%d thumbnails: %r" % (len(found), found))
        return img, found
    return s.wait_for(check, T(15), what)


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-thumbs-") as tmp, \
            Session(outputs=["%dx%d" % OUTPUT], config=prompt.allow_busctl(Path(tmp))) as s:
        out = s.output()
        _, window = s.colour_window_at(GREEN, (200, 150), (100, 120), "green",
                                       "org.oriel.test.green")
        s.wait_colour((120, 140, 20, 20), GREEN, what="the green window")
        s.park_pointer()
        wx, wy, ww, wh = geometry(window)
        sources = [("monitor:" + out["name"], "Screen " + out["name"]),
                   ("window:%d" % window["id"], "green"),
                   ("virtual", "A new virtual screen")]
        ask = prompt.Ask(s, "org.example.Meeting", "screencast", sources)
        img, found = wait_pictures(s, 2, "the prompt with two thumbnails")
        chosen = prompt.box(img, prompt.SELECTED)
        rows = prompt.bands(img, prompt.ROW)
        expect_eq(len(rows), 2, "rows not chosen")
        screen_pic, window_pic = found
        expect(inside(chosen, screen_pic), "the output's thumbnail %r is not in its row %r"
               % (screen_pic, chosen))
        expect(inside(rows[0], window_pic), "the window's thumbnail %r is not in its row %r"
               % (window_pic, rows[0]))
        expect(not [p for p in found if inside(rows[1], p)],
               "a thumbnail in the virtual screen's row")
        expect(screen_pic[0] - chosen[0] < 20 and window_pic[0] - rows[0][0] < 20,
               "the thumbnails are not at the left of their rows")

        # The window's own content: all green, of the window's aspect.
        bad = img.first_mismatch(window_pic, GREEN, tolerance=3)
        expect(bad is None, "the window's thumbnail %r is not all green: %r"
               % (window_pic, bad))
        expect(abs(window_pic[2] / window_pic[3] - ww / wh) < 0.05,
               "the window's thumbnail %r is not %dx%d's shape" % (window_pic, ww, wh))

        # The output: the window where it is, scaled; nothing green elsewhere.
        px, py, pw, ph = screen_pic
        expect(abs(pw / ph - OUTPUT[0] / OUTPUT[1]) < 0.05,
               "the output's thumbnail %r is not the output's shape" % (screen_pic,))
        sx, sy = pw / OUTPUT[0], ph / OUTPUT[1]
        expected = (px + (wx - out["x"]) * sx, py + (wy - out["y"]) * sy, ww * sx, wh * sy)
        got = green_box(img, screen_pic)
        expect(got is not None, "no green in the output's thumbnail %r" % (screen_pic,))
        for i, what in enumerate(("left", "top", "width", "height")):
            expect(abs(got[i] - expected[i]) <= 1.5,
                   "the green window in the output's thumbnail: %s %d, expected %.1f "
                   "(found %r, expected %r)" % (what, got[i], expected[i], got, expected))
        ex, ey, ew, eh = (int(round(v)) for v in expected)
        bad = img.first_mismatch((ex + 1, ey + 1, ew - 2, eh - 2), GREEN, tolerance=3)
        expect(bad is None, "the window's place in the output's thumbnail is not green: %r"
               % (bad,))
        s.key_sym("Escape")
        expect_eq(ask.answer(), (False, "", False), "the answer to Escape")
        prompt.wait_gone(s)

        # Eight rows: smaller thumbnails; a small output: none, still usable.
        many = [("window:%d" % window["id"], "green %d" % i) for i in range(7)]
        ask = prompt.Ask(s, "org.example.Meeting", "screencast", [sources[0]] + many)
        img, found = wait_pictures(s, 8, "the prompt with eight thumbnails")
        expect(found[0][3] < screen_pic[3], "eight thumbnails are as tall (%d) as two (%d)"
               % (found[0][3], screen_pic[3]))
        for p in found[1:]:
            bad = img.first_mismatch(p, GREEN, tolerance=3)
            expect(bad is None, "a small window thumbnail %r is not all green: %r" % (p, bad))
        s.orielctl("output-size", out["name"], "640x360")

        def small():
            shot = prompt.wait_shown(s, "the prompt on a small output")
            if shot.width != 640 or pictures(shot):
                raise NotYet("%dx%d, thumbnails %r" % (shot.width, shot.height,
                                                       pictures(shot)))
            return shot
        img = s.wait_for(small, T(15), "the thumbnails to go on a 640x360 output")
        allow = prompt.box(img, prompt.ALLOW)
        expect(allow[1] + allow[3] <= 360, "Allow %r is off the output" % (allow,))
        expect_eq(len(prompt.bands(img, prompt.ROW)), 7, "rows not chosen on a small output")
        s.click(*prompt.centre(allow))
        expect_eq(ask.answer(), (True, "monitor:" + out["name"], False),
                  "the answer to Allow on a small output")
        prompt.wait_gone(s)
        s.check_alive()


if __name__ == "__main__":
    harness.run(main)
