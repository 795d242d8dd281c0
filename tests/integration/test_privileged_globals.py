#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Each privileged global is listed only to the executables named for it.

wayland-info lists the globals its registry announces.  Five copies of it,
each named in the policy for one capability, must each see exactly that
capability's globals on top of the ordinary ones; /usr/bin/wayland-info,
named for nothing, sees none of them.  (export-dmabuf goes with
screencopy: the same pixels.)  A client that binds a hidden global by
guessing its name gets a protocol error instead of the global.
"""
import re
import shutil
import tempfile
from pathlib import Path

import harness
from harness import Session, exe, expect, expect_eq, tool

CAPABILITIES = {
    "screencopy": {"zwlr_screencopy_manager_v1", "zwlr_export_dmabuf_manager_v1"},
    "virtual-input": {"zwp_virtual_keyboard_manager_v1",
                      "zwlr_virtual_pointer_manager_v1"},
    "data-control": {"zwlr_data_control_manager_v1"},
    "output-management": {"zwlr_output_manager_v1"},
    "gamma": {"zwlr_gamma_control_manager_v1"},
}
PRIVILEGED = set().union(*CAPABILITIES.values())
ORDINARY = {"wl_compositor", "wl_seat", "xdg_wm_base", "zxdg_output_manager_v1"}


def interfaces(s, info):
    res = s.run_tool([info])
    found = set(re.findall(r"interface: '([^']+)'", res.stdout))
    expect(ORDINARY <= found, "%s misses ordinary globals: %s"
           % (info, sorted(ORDINARY - found)))
    return found


def main():
    info = tool("wayland-info")
    with tempfile.TemporaryDirectory(prefix="oriel-privileged-") as d:
        copies = {}
        args = []
        for capability in CAPABILITIES:
            copy = Path(d) / capability / "wayland-info"
            copy.parent.mkdir()
            shutil.copy(info, copy)
            copies[capability] = copy
            args += ["--privileged", "%s=%s" % (capability, copy)]

        with Session(outputs=["640x480"], args=args) as s:
            seen = interfaces(s, info)
            expect_eq(sorted(seen & PRIVILEGED), [],
                      "privileged globals listed to %s" % info)
            for capability, copy in copies.items():
                seen = interfaces(s, copy)
                expect_eq(sorted(seen & PRIVILEGED), sorted(CAPABILITIES[capability]),
                          "privileged globals listed to the %s copy" % capability)

            guesser = s.spawn_wayland([exe("ORIEL_TEST_MALFORMED"), "--kind",
                                       "bind-hidden"], name="bind-hidden")
            status = guesser.wait(timeout=15)
            output = guesser.log()
            expect_eq(status, 0, "binding a hidden global (output: %r)" % output)
            expect("protocol-error wl_registry 0" in output.splitlines(),
                   "binding a hidden global: %r" % output)
            expect("invalid global" in output, "libwayland's reason: %r" % output)
            s.check_alive()


if __name__ == "__main__":
    harness.run(main)
