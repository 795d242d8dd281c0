#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A client too slow for the sound loses samples, and does not fall behind.

oriel-test-rdpclient takes sound, but playing a block takes it twice the
block's length (--sound-slow 2): it confirms each block only once it
played the one before. paplay plays a 3 s tone in the session. Were
everything sent, the client would get the last of it 3 s after the tone
ended; oriel sends while at most 10 blocks (200 ms) wait for their
confirmation, so the client gets its last block within 1 s of the end,
has been given well under the whole tone, and oriel's log says how much
it dropped.
"""
import re
import time

import harness
import rdp
import sound
from harness import expect, T

PASSWORD = "slow-Pass-2020"
SECONDS = 3.0
MAX_LAG = 1.0


def main():
    with sound.rdp_session("oriel-audio-slow-", "snail", PASSWORD) as (s, port, secret):
        c = rdp.RdpClient(s, port, name="snail", user="snail", password_file=secret,
                          extra=["--sound", s.tmp / "slow.pcm", "--sound-slow", "2"])
        c.wait_connected()
        sound.wait_sink(s, "Remote audio (oriel)")
        wav = sound.write_tone(s.tmp / "tone.wav", 440, SECONDS)
        s.run_tool(["paplay", wav], timeout=30)
        ended = time.monotonic_ns()

        def quiet():
            lines = c.lines_since(0, "sound")
            last = int(lines[-1].split()[2]) if lines else 0
            return sound.holds(lines and time.monotonic_ns() - last > 0.5e9,
                               "sound still arrives")
        s.wait_for(quiet, T(15), "the sound to stop arriving")
        lines = c.lines_since(0, "sound")
        lag = (int(lines[-1].split()[2]) - ended) / 1e9
        got = sum(int(l.split()[1]) for l in lines) / 4 / 48000
        harness.log("the slow client got %.2f s of %.1f s, the last %.2f s after the end" % (
            got, SECONDS, lag))
        expect(lag <= MAX_LAG, "the slow client got sound %.2f s after the tone ended "
               "(at most %.1f)" % (lag, MAX_LAG))
        expect(got <= 0.8 * SECONDS, "the slow client was given %.2f s of %.1f s" % (
            got, SECONDS))
        c.close()
        m = s.wait_for(lambda: re.search(r"RDP: sound to [^:]+: .* ([0-9.]+) s dropped",
                                         s.log_text()) or sound.holds(False, "no summary"),
                       T(10), "oriel's summary of the client's sound")
        expect(float(m.group(1)) >= 0.5, "oriel dropped only %s s" % m.group(1))


if __name__ == "__main__":
    harness.run(main)
