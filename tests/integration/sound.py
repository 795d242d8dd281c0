# SPDX-License-Identifier: MIT
"""Sound for the audio suite: the session's own sound server (oriel starts
PipeWire, WirePlumber and pipewire-pulse: Session(sound=True)), tones
written as WAV files, and what a recording holds.

    with Session(sound=True) as s:
        daemons = sound.wait_server(s)        # {"pipewire": pid, ...}
        wav = sound.write_tone(s.tmp / "a.wav", 440, 2.0)
        s.run_tool(["paplay", wav])
        peak, level = sound.peak(samples, 48000)
"""
import contextlib
import math
import os
import struct
import tempfile
import wave
from pathlib import Path

import rdp
import vnc
from harness import NotYet, Session, TestFailure, T

DAEMONS = ("pipewire", "wireplumber", "pipewire-pulse")


def holds(cond, why):
    """For wait_for: True, or NotYet(why) raised."""
    if not cond:
        raise NotYet(why)
    return True


def children(pid):
    """{comm: pid} of pid's children."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        if ppid == pid:
            out[comm] = int(entry)
    return out


def wait_server(s):
    """The sound server oriel started for s, once pipewire-pulse answers."""
    def up():
        kids = children(s.oriel.pid)
        missing = [d for d in DAEMONS if d not in kids]
        if missing:
            raise NotYet("oriel has not started %s" % ", ".join(missing))
        res = s.run_tool(["pactl", "info"], check=False, timeout=5)
        if res.returncode != 0:
            raise NotYet("pactl info: %s" % res.stderr.strip())
        return {d: kids[d] for d in DAEMONS}
    return s.wait_for(up, T(20), "the session's sound server")


def node_named(s, kind, description):
    """The pulse name of the sink or source (kind: "sinks", "sources") whose
    description is description; None when there is none."""
    res = s.run_tool(["pactl", "list", kind], check=False, timeout=5)
    name = None
    for line in res.stdout.splitlines():
        line = line.strip()
        if line.startswith("Name:"):
            name = line.split(None, 1)[1]
        if line == "Description: %s" % description:
            return name
    return None


def wait_sink(s, name):
    """The pulse name of the sink whose description is name, once it exists."""
    def found():
        sink = node_named(s, "sinks", name)
        if sink is None:
            raise NotYet("no sink %r yet" % name)
        return sink
    return s.wait_for(found, T(15), "the sink %r" % name)


@contextlib.contextmanager
def rdp_session(prefix, user, password):
    """A session (640x480, no Xwayland) whose sound server is up and whose
    RDP port listens, with user's account: (session, port, a file holding
    the password for oriel-test-rdpclient)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as d:
        users = vnc.write_users_file(Path(d), [(user, password)])
        port = vnc.free_port()
        with Session(outputs=["640x480"], xwayland="off", sound=True,
                     args=rdp.rdp_args(port, "--rdp-users", users)) as s:
            wait_server(s)
            rdp.wait_listening(s, port)
            yield s, port, rdp.write_secret(s, password)


def default_sink(s):
    return s.run_tool(["pactl", "get-default-sink"], timeout=5).stdout.strip()


def write_tone(path, freq, seconds, rate=48000, amplitude=0.5):
    """A stereo 16-bit WAV of a sine at freq; returns its path."""
    n = int(rate * seconds)
    frames = bytearray()
    for i in range(n):
        v = int(amplitude * 32767 * math.sin(2 * math.pi * freq * i / rate))
        frames += struct.pack("<hh", v, v)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))
    return path


def read_wav(path):
    """(rate, channels, samples of the first channel) of a 16-bit WAV. A
    recorder stopped by a signal may leave the header's sizes at 0: the
    data run to the end of the file."""
    data = path.read_bytes()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise TestFailure("%s is not a WAV file" % path)
    pos, rate, ch, bits = 12, None, None, None
    while pos + 8 <= len(data):
        kind, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = pos + 8
        if kind == b"fmt ":
            _, ch, rate, _, _, bits = struct.unpack("<HHIIHH", data[body:body + 16])
        elif kind == b"data":
            end = len(data) if size == 0 or body + size > len(data) else body + size
            if bits != 16:
                raise TestFailure("%s is not 16-bit" % path)
            raw = data[body:end]
            samples = struct.unpack("<%dh" % (len(raw) // 2), raw[:len(raw) // 2 * 2])
            return rate, ch, list(samples[::ch])
        pos = body + size + (size & 1)
    raise TestFailure("%s has no data" % path)


def peak(samples, rate):
    """(frequency of the spectral peak in Hz, RMS level relative to full
    scale) of mono 16-bit samples, by a DFT over the loudest second."""
    if len(samples) < rate // 4:
        raise TestFailure("only %d samples" % len(samples))
    # The loudest stretch: the tone, not the silence around it.
    win = min(len(samples), rate)
    best, best_energy = 0, -1
    step = max(1, rate // 20)
    for start in range(0, len(samples) - win + 1, step):
        e = sum(x * x for x in samples[start:start + win:16])
        if e > best_energy:
            best, best_energy = start, e
    seg = samples[best:best + win]
    rms = math.sqrt(sum(x * x for x in seg) / len(seg)) / 32768.0
    # Goertzel: 5 Hz steps over a quarter second, then 0.5 Hz steps
    # around the best over the whole second.
    coarse = seg[:rate // 4]
    f = max(range(50, 4000, 5), key=lambda f: power(coarse, f, rate))
    fine = [f + d / 2 for d in range(-12, 13)]
    return max(fine, key=lambda f: power(seg, f, rate)), rms


def power(samples, freq, rate):
    """The power of samples at freq (Goertzel)."""
    coeff = 2 * math.cos(2 * math.pi * freq / rate)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + coeff * s1 - s2, s1
    return s1 * s1 + s2 * s2 - coeff * s1 * s2
