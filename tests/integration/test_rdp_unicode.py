#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Unicode keyboard events (as mobile clients send them) type into X apps.

oriel-test-rdpclient logs on and types a line as RDP Unicode keyboard
events, one UTF-16 unit pressed and released at a time, the way clients
without a scancode keyboard do (xfreerdp 2.11 has no option for it). An
xterm's shell in the session reads the line: letters outside the layout,
the euro sign, a character beyond the BMP (two UTF-16 halves) and Return
arrive as typed, under the `us` and `de` layouts.

Then once more with an account whose hash takes half a second to check:
the client is connected and types before oriel has let it in, and not a
key may be lost meanwhile.
"""
import tempfile
from pathlib import Path

import rdp
from harness import Session, expect_eq

PASSWORD = "uni-Pass-4410"
TEXT = "Grüße ñ € ✓ \U0001F600 @|"


def slow_hash(password):
    """A SHA-512 crypt(3) hash of 500000 rounds: about half a second."""
    import ctypes
    lib = ctypes.CDLL("libcrypt.so.1")
    lib.crypt_gensalt.restype = ctypes.c_char_p
    lib.crypt_gensalt.argtypes = [ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p,
                                  ctypes.c_int]
    lib.crypt.restype = ctypes.c_char_p
    lib.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    return lib.crypt(password.encode(), lib.crypt_gensalt(b"$6$", 500000, None, 0)).decode()


def main():
    for layout, slow in (("us", False), ("de", False), ("us", True)):
        with tempfile.TemporaryDirectory(prefix="oriel-rdp-unicode-") as d:
            d = Path(d)
            config, port = rdp.keyboard_config(d, layout, "unicoder", PASSWORD)
            if slow:
                users = next(p for p in d.iterdir() if p.name.startswith("users-"))
                users.write_text("unicoder:%s\n" % slow_hash(PASSWORD))
            with Session(outputs=["1024x768"], config=config) as s:
                xterm, win, out = rdp.line_xterm(s, title="rdp unicode")
                rdp.wait_listening(s, port)
                s.wait_x_focus(s.wait_x_window("XTerm"))
                secret = rdp.write_secret(s, PASSWORD)
                client = rdp.RdpClient(s, port, name="unicode-" + layout, user="unicoder",
                                       password_file=secret, size=(1024, 768))
                client.wait_connected()
                client.send("unicode " + TEXT + "\\n")
                expect_eq(s.wait_written(xterm, out), TEXT + "\n",
                          "the line typed as Unicode events under %s%s" % (
                              layout, " right after a slow logon" if slow else ""))
                client.close()


if __name__ == "__main__":
    import harness
    harness.run(main)
