#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""oriel nested in a headless Weston (--backend wayland): an xterm's text,
drawn after its window mapped, is in Weston's own screenshot, opaque, as
it is in oriel's.

Weston's desktop shell places oriel's window where it likes, so the
xterm is found in Weston's screenshot as the largest opaque white area
(its background). Weston's screenshooter (weston --debug) writes what its
output holds; the text's pixels there must be opaque: XRGB8888 frames
from a nested oriel carried a zero padding byte that Weston took for
alpha, and the text came out transparent.
"""
import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import harness
import prompt
from harness import NotYet, Session, T, expect, tool

SIZE = (1024, 768)
WHITE = (0xff, 0xff, 0xff)


def dark_pixels(img, rect, need_opaque):
    x0, y0, w, h = rect
    n = 0
    for y in range(y0, min(y0 + h, img.height)):
        for x in range(x0, min(x0 + w, img.width)):
            r, g, b, a = img.rgba(x, y)
            if r < 80 and g < 80 and b < 80 and (a == 255 or not need_opaque):
                n += 1
    return n


class Weston:
    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="oriel-weston-"))
        self.runtime = self.dir / "runtime"
        self.runtime.mkdir(mode=0o700)
        self.env = {k: v for k, v in os.environ.items() if k not in (
            "WAYLAND_DISPLAY", "DISPLAY", "WAYLAND_SOCKET")}
        self.env.update({"XDG_RUNTIME_DIR": str(self.runtime), "HOME": str(self.dir)})
        self.log = open(self.dir / "weston.log", "wb")
        self.proc = subprocess.Popen(
            [tool("weston"), "--backend=headless-backend.so", "--use-pixman",
             "--width=%d" % SIZE[0], "--height=%d" % SIZE[1], "--socket=wayland-w",
             "--debug", "--idle-time=0"],
            env=self.env, stdin=subprocess.DEVNULL, stdout=self.log,
            stderr=subprocess.STDOUT, start_new_session=True)
        self.socket = self.runtime / "wayland-w"

        def up():
            if self.proc.poll() is not None:
                raise harness.TestFailure("weston exited: %s" % self.text()[-2000:])
            if not self.socket.exists():
                raise NotYet("no %s yet" % self.socket)
            return True
        harness.wait_for(up, 15, "weston's socket")

    def text(self):
        return (self.dir / "weston.log").read_text(errors="replace")

    def screenshot(self):
        shots = self.dir / "shots"
        shutil.rmtree(shots, ignore_errors=True)
        shots.mkdir()
        env = dict(self.env, WAYLAND_DISPLAY="wayland-w")
        res = subprocess.run([tool("weston-screenshooter")], env=env, cwd=str(shots),
                             capture_output=True, text=True, timeout=T(15))
        found = glob.glob(str(shots / "*.png"))
        if res.returncode != 0 or not found:
            raise NotYet("weston-screenshooter: %s %s" % (res.returncode, res.stderr))
        return harness.read_png(found[0])

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(T(10))
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


# wlroots 0.15's wayland backend, when it is destroyed, frees its wl_buffer
# for the frame the parent still shows without unlocking that buffer
# (destroy_wl_buffer in backend/wayland/output.c): one swapchain buffer
# stays allocated at exit. The leak is in wlroots, and only nested.
NESTED_LEAK = "leak:wlr_swapchain_acquire\n"


def lsan_env(tmp):
    """LSAN_OPTIONS with the shared suppressions and the nested one, and
    the slow unwinder, so that the leak's stack shows wlroots' frames."""
    options = os.environ.get("LSAN_OPTIONS")
    if not options:
        return {}
    parts = options.split(":")
    supp = [p for p in parts if p.startswith("suppressions=")]
    text = Path(supp[0].split("=", 1)[1]).read_text() if supp else ""
    path = Path(tmp) / "lsan-nested.supp"
    path.write_text(text + NESTED_LEAK)
    parts = [p for p in parts if not p.startswith("suppressions=")]
    env = {"LSAN_OPTIONS": ":".join(parts + ["suppressions=%s" % path])}
    if os.environ.get("ASAN_OPTIONS"):
        env["ASAN_OPTIONS"] = os.environ["ASAN_OPTIONS"] + ":fast_unwind_on_malloc=0"
    return env


def main():
    weston = Weston()
    try:
        env = {"WAYLAND_DISPLAY": str(weston.socket)}
        env.update(lsan_env(weston.dir))
        with Session(args=["--backend", "wayland"], xwayland="lazy", env=env) as s:
            outs = s.outputs()
            expect(outs and outs[0]["name"].startswith("WL-"),
                   "oriel's output is not nested: %r" % outs)
            # A core font, as plain xterm has: drawn by the X server itself.
            s.spawn([tool("xterm"), "-fn", "fixed", "-geometry", "40x8+60+60", "-fg", "black",
                       "-bg", "white", "-title", "nested-text", "-e", "sh", "-c",
                       "sleep 1; for i in 1 2 3 4 5; do echo HHHHHHHHHHHHHHHHHHHHHHHHHHHHHH; "
                       "done; exec sleep 1000"], env={"LC_ALL": "C", "WAYLAND_DISPLAY": None})
            win = s.wait_window(title="nested-text")
            rect = (win["x"], win["y"], win["width"], win["height"])

            def text_in_oriel():
                n = dark_pixels(s.screenshot(), rect, False)
                if n < 200:
                    raise NotYet("%d dark pixels in oriel's screenshot" % n)
                return n
            ours = s.wait_for(text_in_oriel, T(20), "the xterm's text in oriel")

            def text_in_weston():
                img = weston.screenshot()
                areas = [b for b in prompt.bands(img, WHITE) if b[2] > 100]
                if not areas:
                    raise NotYet("no white xterm in Weston's screenshot")
                area = max(areas, key=lambda b: b[2] * b[3])
                n = dark_pixels(img, area, True)
                if n < ours * 0.9:
                    raise NotYet("%d opaque dark pixels in Weston's screenshot, %d in "
                                 "oriel's" % (n, ours))
                return n
            s.wait_for(text_in_weston, T(20), "the xterm's text in Weston's screenshot")
    finally:
        weston.stop()


if __name__ == "__main__":
    harness.run(main)
