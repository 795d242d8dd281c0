#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A session has sound of its own, and it ends with the session.

With nothing answering on the session's PipeWire socket, oriel starts
PipeWire, WirePlumber and pipewire-pulse as its children; a PulseAudio
client in the session (pactl) reaches them in the session's runtime dir.
When oriel stops, all three are gone, and so are their files there. A second session in a runtime dir
where PipeWire answers already starts none of its own.
"""
import os

import sound
from harness import Session, expect, expect_eq, pid_alive, T


def main():
    with Session(outputs=["640x480"], xwayland="off", sound=True) as s:
        daemons = sound.wait_server(s)
        info = s.run_tool(["pactl", "info"]).stdout
        expect("%s/pulse/native" % s.runtime_dir in info,
               "pactl reaches the session's own pulse socket: %s" % info)
        for name, pid in daemons.items():
            with open("/proc/%d/environ" % pid, "rb") as f:
                env = f.read().split(b"\0")
            expect(("XDG_RUNTIME_DIR=%s" % s.runtime_dir).encode() in env,
                   "%s runs in the session's runtime dir" % name)
            expect_eq(os.stat("/proc/%d" % pid).st_uid, os.getuid(),
                      "%s runs as the session's user" % name)
        s.stop()
        for name, pid in daemons.items():
            expect(not pid_alive(pid), "%s (%d) ended with the session" % (name, pid))
        for left in ("pipewire-0", "pipewire-0.lock", "pulse"):
            expect(not (s.runtime_dir / left).exists(),
                   "%s went with the session" % left)

    # The user's own sound server is hers: oriel starts none beside it.
    with Session(outputs=["640x480"], xwayland="off") as first:
        theirs = first.spawn(["pipewire"], name="pipewire")
        first.wait_for(lambda: (first.runtime_dir / "pipewire-0").exists(), T(10),
                       "the user's PipeWire")
        with Session(outputs=["640x480"], xwayland="off", sound=True,
                     env={"PIPEWIRE_REMOTE": str(first.runtime_dir / "pipewire-0")}) as s:
            s.wait_for(lambda: "oriel uses it" in s.log_text(), T(10),
                       "oriel to find the user's PipeWire")
            expect(not any(d in sound.children(s.oriel.pid) for d in sound.DAEMONS),
                   "oriel started no sound server of its own")
        theirs.kill()


if __name__ == "__main__":
    import harness
    harness.run(main)
