#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Typing from a VNC viewer reaches an X app under the 'us' layout.

See vnc.typing_test: a libvncclient viewer clicks into xterm and types
'hello World@|ä€' (Shift held around the W, and characters that need
Shift, AltGr or a spare keycode in 'us'); xterm's `read l` must get
exactly that line.
"""
import harness
import vnc


def main():
    vnc.typing_test("us")


if __name__ == "__main__":
    harness.run(main)
