#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test_audio_rdp_playback with a client that offers sound only on the
dynamic channel (AUDIO_PLAYBACK_DVC), as clients without the static
rdpsnd channel do: oriel says it sends there, and the tone arrives whole,
at 440 +- 5 Hz and its level, within 150 ms of the app's first sound."""
import harness
import test_audio_rdp_playback

if __name__ == "__main__":
    harness.run(lambda: test_audio_rdp_playback.main("pcm", dynamic=True))
