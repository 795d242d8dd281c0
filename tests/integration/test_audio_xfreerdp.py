#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""xfreerdp hears the session: /sound:sys:fake and /microphone.

oriel runs the session's sound server; xfreerdp (in an Xvfb) logs on with
/sound:sys:fake (FreeRDP's test device: it plays nothing, but confirms
what it is given) and /microphone. oriel opens rdpsnd to it and makes
its microphone the session's (audin), and while
paplay plays a tone in the session, sends it sound that it confirms: no
block is dropped for lagging, nothing fails on either side, and
xfreerdp's log has no rdpsnd or audin error. The client's own sound
system, for its microphone, is the session's pulse socket (PULSE_SERVER):
client and session share this machine.
"""
import os
import tempfile
from pathlib import Path

import harness
import rdp
import sound
import vnc
from harness import NotYet, Session, expect

PASSWORD = "xfsound-Pass-2207"


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-audio-xf-") as d:
        users = vnc.write_users_file(Path(d), [("xena", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["800x600"], xwayland="off", sound=True,
                     args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            sound.wait_server(s)
            rdp.wait_listening(s, port)
            os.environ["PULSE_SERVER"] = "unix:%s/pulse/native" % s.runtime_dir
            xvfb = rdp.Xvfb(s)
            try:
                client = rdp.XFreeRDP(s, xvfb, port, "xena", PASSWORD, name="xfsound", extra=[
                    "/size:800x600", "/sound:sys:fake", "/microphone"])

                def opened():
                    if not client.alive():
                        raise harness.TestFailure("xfreerdp exited:\n%s" % client.log())
                    text = s.log_text()
                    if "RDP: sound to" not in text:
                        raise NotYet("no sound channel yet")
                    if "the session's microphone is" not in text:
                        raise NotYet("no microphone yet")
                    return True
                s.wait_for(opened, harness.T(30), "oriel to open sound and the microphone")
                sound.wait_sink(s, "Remote audio (oriel)")
                wav = sound.write_tone(s.tmp / "tone.wav", 440, 1.0)
                s.run_tool(["paplay", wav], timeout=20)
                expect(client.alive(), "xfreerdp exited:\n%s" % client.log())
                text = s.log_text()
                for bad in ("cannot send sound", "too slow for", "cannot open sound"):
                    expect(bad not in text, "oriel's log says %r" % bad)
                errors = [l for l in client.log().splitlines()
                          if "ERROR" in l and ("rdpsnd" in l or "audin" in l)]
                expect(not errors, "xfreerdp's sound errors:\n%s" % "\n".join(errors))
            finally:
                xvfb.close()


if __name__ == "__main__":
    harness.run(main)
