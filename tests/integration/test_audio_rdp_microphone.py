#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An RDP client's microphone is the session's.

oriel starts the session's sound server. oriel-test-rdpclient offers a
microphone (audin) that hears an 880 Hz sine at half full scale. Once the
client opened it, the session has the source "Remote microphone (oriel)"
as its default, and parecord in the session records the sine: its
spectral peak at 880 +- 5 Hz, at its level (within 1 dB). When the client
goes, so does the source.
"""
import signal

import harness
import rdp
import sound
from harness import NotYet, expect, T

PASSWORD = "mic-Pass-8800"
TONE, AMPLITUDE, SECONDS = 880, 0.5, 2.0


def main():
    with sound.rdp_session("oriel-audio-mic-", "speaker", PASSWORD) as (s, port, secret):
        c = rdp.RdpClient(s, port, name="speaker", user="speaker",
                          password_file=secret, extra=["--microphone", TONE])
        c.wait_connected()
        c.wait_line("microphone-open", what="the microphone to open")

        def default_is_ours():
            ours = sound.node_named(s, "sources", "Remote microphone (oriel)")
            default = s.run_tool(["pactl", "get-default-source"], timeout=5).stdout.strip()
            if not ours or default != ours:
                raise NotYet("the default source is %s, ours %s" % (default, ours))
            return ours
        s.wait_for(default_is_ours, T(10), "Remote microphone (oriel) as the default source")

        wav = s.tmp / "recorded.wav"
        rec = s.spawn(["parecord", "--file-format=wav", "--rate=48000", "--channels=2",
                       "--format=s16le", wav], name="parecord")
        enough = 44 + int(48000 * 4 * SECONDS)
        s.wait_for(lambda: sound.holds(wav.exists() and wav.stat().st_size >= enough,
                                       "not enough recorded"),
                   T(15), "%.0f s recorded" % SECONDS)
        rec.kill(signal.SIGINT)
        rec.wait()
        rate, channels, samples = sound.read_wav(wav)
        freq, level = sound.peak(samples, rate)
        harness.log("recorded: %d Hz x %d, peak %.1f Hz, RMS %.3f of full scale" % (
            rate, channels, freq, level))
        expect(abs(freq - TONE) <= 5, "the peak is at %.1f Hz, not %d" % (freq, TONE))
        want = AMPLITUDE / 2 ** 0.5
        expect(want * 0.89 <= level <= want * 1.12,
               "the level is %.3f of full scale, not %.3f" % (level, want))

        c.close()
        s.wait_for(lambda: sound.holds(
            sound.node_named(s, "sources", "Remote microphone (oriel)") is None,
            "the source is there"), T(10), "the source to go with the client")


if __name__ == "__main__":
    harness.run(main)
