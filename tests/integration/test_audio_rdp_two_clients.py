#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every client that takes sound hears the session, and one that goes
leaves the others playing.

paplay starts a 6 s 440 Hz tone in the session before any client is
there (the session has no sink yet). Two oriel-test-rdpclient clients
that take sound log on: the stream moves to "Remote audio (oriel)" and
both receive it. The first client disconnects in the middle of the
tone; the second keeps receiving, and what it received has its peak at
440 Hz.
"""
import tempfile
from pathlib import Path

import harness
import rdp
import sound
import vnc
from harness import Session, expect, T

PASSWORD = "two-Pass-4402"


def main():
    with tempfile.TemporaryDirectory(prefix="oriel-audio-two-") as d:
        users = vnc.write_users_file(Path(d), [("duo", PASSWORD)])
        port = vnc.free_port()
        with Session(outputs=["640x480"], xwayland="off", sound=True,
                     args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            sound.wait_server(s)
            rdp.wait_listening(s, port)
            wav = sound.write_tone(s.tmp / "tone.wav", 440, 6.0)
            player = s.spawn(["paplay", wav], name="paplay")
            secret = rdp.write_secret(s, PASSWORD)
            clients = [rdp.RdpClient(s, port, name=name, user="duo", password_file=secret,
                                     extra=["--sound", s.tmp / ("%s.pcm" % name)])
                       for name in ("first", "second")]
            for c in clients:
                c.wait_connected()
            for c in clients:
                c.wait_line(lambda l: l.startswith("sound "), timeout=10,
                            what="the playing stream's sound")
            first, second = clients
            expect(player.alive(), "paplay ended before the first client went")
            first.close()
            mark = second.mark()
            second.wait_line(lambda l: l.startswith("sound "), since=mark, timeout=5,
                             what="sound after the first client went")
            player.wait(15)
            # What played before the clients came was heard by nobody.
            pcm = s.tmp / "second.pcm"
            s.wait_for(lambda: sound.holds(pcm.stat().st_size >= 4 * 48000 * 2.0,
                                           "%d bytes" % pcm.stat().st_size),
                       T(5), "2 s of the tone at the second client")
            data = pcm.read_bytes()
            samples = list(memoryview(data[:len(data) // 4 * 4]).cast("h"))[::2]
            freq, level = sound.peak(samples, 48000)
            harness.log("the second client: %.2f s, peak %.1f Hz, RMS %.3f" % (
                len(samples) / 48000, freq, level))
            expect(abs(freq - 440) <= 5, "the second client's peak is at %.1f Hz" % freq)
            expect(second.alive(), "the second client disconnected")


if __name__ == "__main__":
    harness.run(main)
