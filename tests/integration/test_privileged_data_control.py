#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wl-copy and wl-paste use data-control only when the policy names them.

wlr-data-control lets a client read and set the clipboard without a
surface or focus.  By default the global is hidden: wl-paste's registry
does not even mention it.  With `data-control` granted to wl-copy and
wl-paste, wl-paste reads what wl-copy offers through data-control
devices, without making a surface of its own.
"""
import harness
from harness import NotYet, Session, expect, expect_eq, tool

TEXT = "oriel clipboard 42"
MANAGER = "zwlr_data_control_manager_v1"


def main():
    copy, paste = tool("wl-copy"), tool("wl-paste")
    expect_eq((copy, paste), ("/usr/bin/wl-copy", "/usr/bin/wl-paste"),
              "wl-clipboard's paths, as the policy names them")
    debug = {"WAYLAND_DEBUG": "1"}

    with Session(outputs=["640x480"]) as s:
        res = s.run_tool([paste, "--list-types"], env=debug, check=False)
        expect(MANAGER not in res.stderr,
               "wl-paste was told about %s without permission" % MANAGER)

    with Session(outputs=["640x480"],
                 args=["--privileged", "data-control=%s %s" % (copy, paste)]) as s:
        owner = s.spawn([copy, "--foreground", TEXT], name="wl-copy", env=debug)

        def pasted():
            res = s.run_tool([paste, "--no-newline"], env=debug, check=False)
            if res.returncode != 0 or res.stdout != TEXT:
                if not owner.alive():
                    raise harness.TestFailure("wl-copy exited: %s" % owner.log())
                raise NotYet("wl-paste: %r %r" % (res.stdout, res.stderr[-300:]))
            return res
        res = s.wait_for(pasted, what="wl-paste to read wl-copy's text")
        expect("zwlr_data_control_device_v1" in res.stderr,
               "wl-paste did not use a data-control device")
        expect("wl_surface@" not in res.stderr,
               "wl-paste needed a surface despite data-control")
        expect("zwlr_data_control_device_v1" in owner.log(),
               "wl-copy did not use a data-control device")


if __name__ == "__main__":
    harness.run(main)
