#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A session that oriel-gateway hosts has sound, with no setting, and plays
to the client that logged in through the gateway.

alice's session command plays a 440 Hz tone over and over with pacat
(a PulseAudio client). Her oriel starts PipeWire, WirePlumber and
pipewire-pulse as her, in her session's runtime dir. oriel-test-rdpclient
takes sound and logs in through the gateway's RDP port: it receives the
tone (its spectral peak at 440 +- 5 Hz).
"""
import os
import pwd

import gateway
import harness
import rdp
import sound
from harness import expect, T

# Her session's command: the tone as raw PCM in her runtime dir, played
# again and again (pacat fails until her session's pulse answers).
TONE_SCRIPT = r"""
python3 -c '
import math, struct, sys
with open(sys.argv[1], "wb") as f:
    f.write(b"".join(struct.pack("<hh", v, v) for v in (
        int(16383 * math.sin(2 * math.pi * 440 * i / 48000)) for i in range(5 * 48000))))
' "$XDG_RUNTIME_DIR/tone.raw"
while :; do
    pacat --playback --raw --format=s16le --rate=48000 --channels=2 \
        "$XDG_RUNTIME_DIR/tone.raw" || sleep 0.2
done
"""


def main():
    host = gateway.Host(("alice",), config="[session]\ncommand = sh -c 'exec sh \"$HOME/tone.sh\"'"
                        "\noutput = 640x480\n")
    try:
        user = host.users["alice"]
        script = os.path.join(host.home("alice"), "tone.sh")
        with open(script, "w") as f:
            f.write(TONE_SCRIPT)
        pw = pwd.getpwnam(user)
        os.chown(script, pw.pw_uid, pw.pw_gid)
        front = gateway.Front(host, rdp=True)
        password = rdp.write_secret(front, host.passwords["alice"])
        pcm = front.tmp / "received.pcm"
        client = rdp.RdpClient(front, front.rdp_port, user=user, password_file=password,
                               size=(640, 480), extra=["--sound", pcm])
        client.wait_connected(timeout=40)
        row = host.her_session("alice")
        kids = sound.children(row["pid"])
        for daemon in sound.DAEMONS:
            expect(daemon in kids, "her oriel started %s: %s" % (daemon, kids))
            expect(os.stat("/proc/%d" % kids[daemon]).st_uid == pw.pw_uid,
                   "%s runs as her" % daemon)
        client.wait_line(lambda l: l.startswith("sound "), timeout=20, what="her session's sound")
        front.wait_for(lambda: sound.holds(pcm.stat().st_size >= 48000 * 4,
                                           "%d bytes" % pcm.stat().st_size),
                       T(10), "a second of her session's sound")
        data = pcm.read_bytes()
        samples = list(memoryview(data[:len(data) // 4 * 4]).cast("h"))[::2]
        freq, level = sound.peak(samples, 48000)
        harness.log("through the gateway: peak %.1f Hz, RMS %.3f" % (freq, level))
        expect(abs(freq - 440) <= 5, "the peak is at %.1f Hz, not 440" % freq)
        client.close()
    finally:
        host.close()


if __name__ == "__main__":
    harness.run(main)
