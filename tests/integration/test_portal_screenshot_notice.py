#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A screenshot taken for an app through the portal shows on oriel's
sharing indicator.

With `[indicator] screenshot-notice = 600` (long, so that the test sees it
however slow the machine), a Screenshot through the real frontend, which
the policy allows:
- no badge before; the screenshot itself does not show the badge (it is
  noted once taken);
- then the badge is at the top right of the output;
- a click on it takes it down.
"""
import tempfile
from pathlib import Path

import portal
import prompt
from harness import Session, expect, expect_eq, run
from test_portal_screenshot import ALLOW, take

OUTPUT = (640, 480)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "oriel.ini"
        config.write_text("[indicator]\nscreenshot-notice = 600\n")
        with Session(outputs=["%dx%d" % OUTPUT], config=config) as s:
            park = (OUTPUT[0] - 1, OUTPUT[1] - 1)
            s.pointer_move(*park)
            portal.start(s, policy=ALLOW)
            expect_eq(prompt.badges(s), [], "badges before the screenshot")

            img = take(s)
            expect_eq(prompt.bands(img, prompt.BADGE), [], "badges in the screenshot")
            found = prompt.wait_badge(s, True, "the indicator to note the screenshot")
            expect_eq(len(found), 1, "badges")
            bx, by, bw, bh = found[0]
            expect(bx + bw <= OUTPUT[0] and by < 64,
                   "the badge %r is not at the top right" % (found[0],))

            s.click(*prompt.centre(found[0]))
            s.pointer_move(*park)
            prompt.wait_badge(s, False, "the notice to go when clicked")
            s.check_alive()


if __name__ == "__main__":
    run(main)
