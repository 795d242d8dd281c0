# SPDX-License-Identifier: MIT
"""oriel's permission prompt and sharing indicator as a test sees them:
found by their colours in screenshots (compositor/prompt.c and
compositor/share_indicator.c draw them with these exact colours), and
asked through org.oriel.Compositor.Permission.Ask with busctl, which the
session's config must allow:

    with Session(config=prompt.allow_busctl(tmpdir)) as s:
        ask = prompt.Ask(s, "org.example.App", "screencast",
                         [("HEADLESS-1", "Screen HEADLESS-1")])
        shot = prompt.wait_shown(s)
        s.click(*prompt.centre(prompt.box(shot, prompt.ALLOW)))
        assert ask.answer() == (True, "HEADLESS-1", False)
"""
import re

from harness import NotYet, TestFailure, expect, T

ALLOW = (0x2e, 0x8b, 0x3e)
DENY = (0xc0, 0x39, 0x2b)
SELECTED = (0x2f, 0x6f, 0xcf)  # the chosen row, and a ticked checkbox
ROW = (0x3a, 0x3a, 0x42)       # a row that is not chosen
CHECKBOX = (0xd0, 0xd0, 0xd0)  # the checkbox's border
BADGE = (0xd3, 0x54, 0x00)     # the sharing indicator

BUSCTL = "/usr/bin/busctl"


def allow_busctl(directory):
    """A config file that lets busctl call the control API."""
    path = directory / "oriel-prompt.ini"
    path.write_text("[control]\nallow = %s\n" % BUSCTL)
    return path


def bands(img, rgb, min_width=8):
    """Boxes (x, y, w, h) of the areas of exactly rgb, split where a whole
    row has none of it: solid rects under text, top to bottom."""
    pattern = bytes(rgb)
    boxes, current = [], None
    for y in range(img.height):
        row = img.data[y * img.stride:(y + 1) * img.stride]
        xs = []
        pos = row.find(pattern)
        while pos >= 0:
            if pos % img.bpp == 0:
                xs.append(pos // img.bpp)
            pos = row.find(pattern, pos + 1)
        if len(xs) < min_width:
            if current:
                boxes.append(current)
                current = None
            continue
        x0, x1 = min(xs), max(xs) + 1
        if current is None:
            current = [x0, y, x1, y + 1]
        else:
            current = [min(current[0], x0), current[1], max(current[2], x1), y + 1]
    if current:
        boxes.append(current)
    return [(b[0], b[1], b[2] - b[0], b[3] - b[1]) for b in boxes]


def box(img, rgb, min_width=8):
    """The one area of colour rgb; fails when there is none or several."""
    found = bands(img, rgb, min_width)
    if len(found) != 1:
        raise NotYet("%d areas of #%02x%02x%02x: %r" % ((len(found),) + tuple(rgb) + (found,)))
    return found[0]


def centre(b):
    return (b[0] + b[2] // 2, b[1] + b[3] // 2)


def wait_shown(s, what="the prompt"):
    """Waits until a screenshot of the first output shows Allow and Deny;
    returns it."""
    def shown():
        img = s.screenshot(output=s.output()["name"])
        box(img, ALLOW)
        box(img, DENY)
        return img
    return s.wait_for(shown, T(15), what)


def wait_gone(s, what="the prompt to go"):
    def gone():
        img = s.screenshot(output=s.output()["name"])
        if bands(img, ALLOW) or bands(img, DENY):
            raise NotYet("Allow or Deny still shown")
        return img
    return s.wait_for(gone, T(15), what)


class Ask:
    """Permission.Ask through busctl, answered when the person answers."""

    def __init__(self, s, app, kind, sources=(), persist=False, timeout_ms=60000):
        self.s = s
        argv = [BUSCTL, "--address=" + s.bus_address, "call", "--timeout=120",
                "org.oriel.Compositor", "/org/oriel/Compositor",
                "org.oriel.Compositor.Permission", "Ask", "ssa(ss)bu", app, kind,
                str(len(sources))]
        for source_id, label in sources:
            argv += [source_id, label]
        argv += ["true" if persist else "false", str(timeout_ms)]
        self.client = s.spawn(argv, name="busctl-ask")

    def answered(self):
        return self.client.proc.poll() is not None

    def answer(self, timeout=None):
        """(allowed, choice, remember) once busctl got the reply."""
        def done():
            if not self.answered():
                raise NotYet("no answer yet")
            return True
        self.s.wait_for(done, timeout or T(30), "the answer to Permission.Ask")
        out = self.client.log()
        m = re.search(r'^bsb (true|false) "(.*)" (true|false)$', out, re.M)
        if self.client.proc.returncode != 0 or not m:
            raise TestFailure("Permission.Ask failed (%s): %s" % (
                self.client.proc.returncode, out))
        return (m.group(1) == "true", m.group(2), m.group(3) == "true")


def call_error(s, *args, method="Ask"):
    """Permission.<method> with raw busctl arguments, expected to fail: stderr."""
    res = s.run_tool([BUSCTL, "--address=" + s.bus_address, "call", "--timeout=20",
                      "org.oriel.Compositor", "/org/oriel/Compositor",
                      "org.oriel.Compositor.Permission", method] + list(args), check=False)
    expect(res.returncode != 0, "Permission.%s %r was answered: %s" % (
        method, args, res.stdout))
    return res.stderr



def badges(s):
    """The sharing indicator's badges on the first output's screenshot."""
    return bands(s.screenshot(output=s.output()["name"]), BADGE)


def wait_badge(s, shown, what):
    """Waits until the indicator is shown (its boxes) or gone (True)."""
    def check():
        found = badges(s)
        if bool(found) != shown:
            raise NotYet("badges: %r" % found)
        return found or True
    return s.wait_for(check, T(10), what)
