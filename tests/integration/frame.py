# SPDX-License-Identifier: MIT
"""Server-side frames as a person uses them: where the title bar's buttons
are, and pointer gestures on them (compositor/frame_layout.h)."""
import time

from harness import expect, geometry

TITLE_HEIGHT = 24   # DECORATION_TITLE_HEIGHT
BORDER = 1          # DECORATION_BORDER
BUTTON = 18         # FRAME_BUTTON_SIZE
GAP = 3             # FRAME_BUTTON_GAP
MARGIN = 6          # FRAME_GRAB_MARGIN
WHITE = (255, 255, 255)
DOUBLE_CLICK = 0.4  # FRAME_DOUBLE_CLICK_MSEC


def button_rect(win, name):
    """A title bar button of a window from `orielctl windows`, in layout
    coordinates: close rightmost, then maximize, then minimize."""
    index = ["close", "maximize", "minimize"].index(name)
    x, y, w, _ = geometry(win)
    return (x + w - (index + 1) * (BUTTON + GAP),
            y - TITLE_HEIGHT + (TITLE_HEIGHT - BUTTON) // 2, BUTTON, BUTTON)


def centre(rect):
    return (rect[0] + rect[2] // 2, rect[1] + rect[3] // 2)


def title_point(win, dx=40):
    """A point on the title bar, clear of the icon, title text and buttons."""
    x, y, w, _ = geometry(win)
    return (x + min(dx, w // 3), y - TITLE_HEIGHT // 2)


def click(s, point):
    s.pointer_move(*point)
    s.orielctl("pointer", "button", "left", "click", json=False)


def drag(s, start, by, steps=2):
    """Left press at start, move by `by` (in steps), release."""
    s.pointer_move(*start)
    s.orielctl("pointer", "button", "left", "press", json=False)
    for i in range(1, steps + 1):
        s.pointer_move(start[0] + by[0] * i // steps, start[1] + by[1] * i // steps)
    s.orielctl("pointer", "button", "left", "release", json=False)


def double_click(s, point, done, what):
    """Two clicks at point, quick enough for a double-click; `done()` says
    whether it worked. A machine too slow to click twice within the time
    gets another try, not a failure."""
    s.pointer_move(*point)
    for _ in range(5):
        start = time.monotonic()
        s.orielctl("pointer", "button", "left", "click", json=False)
        s.orielctl("pointer", "button", "left", "click", json=False)
        elapsed = time.monotonic() - start
        if done():
            return
        expect(elapsed > DOUBLE_CLICK * 0.8,
               "%s: a double-click (%.0f ms apart) did nothing" % (what, elapsed * 1000))
    expect(False, "%s: could not click twice within %.0f ms" % (what, DOUBLE_CLICK * 1000))


def check_buttons(shot, win, title_rgb, what):
    """The three glyphs are drawn where the layout says, in white on the
    title bar colour, and each has its shape."""
    for name in ("close", "maximize", "minimize"):
        rect = button_rect(win, name)
        lit = shot.count_colour(rect, WHITE, tolerance=8)
        expect(lit >= 12, "%s: %s button at %r has %d white pixels: %s"
               % (what, name, rect, lit, shot.describe(rect)))
        corner = shot.pixel(rect[0], rect[1])[:3]
        expect(all(abs(a - b) <= 8 for a, b in zip(corner, title_rgb)),
               "%s: %s button's corner %r is not the title bar's %r"
               % (what, name, corner, title_rgb))
    cx, cy = centre(button_rect(win, "close"))
    near = [shot.pixel(cx + dx, cy + dy)[:3] for dx in (-1, 0) for dy in (-1, 0)]
    expect(WHITE in near, "%s: the close cross does not cross the middle: %r"
           % (what, near))
    mx, my = centre(button_rect(win, "maximize"))
    expect(shot.pixel(mx, my)[:3] != WHITE,
           "%s: the maximize box is not hollow" % what)
    nx, ny = centre(button_rect(win, "minimize"))
    expect(shot.pixel(nx, ny)[:3] != WHITE,
           "%s: the minimize bar is not low in its button" % what)
