#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test_audio_rdp_playback with a client that offers only AAC
(WAVE_FORMAT_AAC_MS), as FreeRDP's clients decode it: oriel encodes the
session's sound itself, the client decodes it, and the tone still peaks
at 440 +- 5 Hz at its level, in under a fifth of PCM's bytes, its first
sound within 150 ms of the app's."""
import harness
import test_audio_rdp_playback

if __name__ == "__main__":
    harness.run(lambda: test_audio_rdp_playback.main("aac"))
