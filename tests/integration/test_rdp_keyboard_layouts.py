#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Each RDP client types through the keyboard layout it announces.

The session's [keyboard] is unset, so its keymap is us, and oriel reads
each client's keys through the layout the client announced.

- A German client (xfreerdp /kbd:0x407, in an Xvfb whose layout is de,
  where xdotool types) and a US one (/kbd:0x409, in a us Xvfb) are logged
  on at the same time. The German one types "ä€@yz" into one xterm, the
  US one '@"[' into another, then the German one "ÖÜß" into a third:
  '@' is AltGr+Q there and Shift+2 here, y and z swap places, ä and Ö are
  keys the session's keymap lacks. Each xterm's shell writes the line it
  read to a file, which must hold exactly what was typed. Before its first
  line the German client types "zu" and erases it with Ctrl+U: Ctrl
  reaches the session with the letters of the client's layout.
- A French client (/kbd:0x40c, AZERTY) types 'azerty&é"@' the same way.
- A German client that sends AltGr as Windows' client does, as left Ctrl
  and right Alt (oriel-test-rdpclient --kbd 0x407 sending scancodes),
  types AltGr+Q and AltGr+E: '@' and '€', not Ctrl+@.
"""
import harness
import rdp
import vnc
from harness import Session, expect_eq


def typed(s, xvfb, client, title, geometry, text, erased=None):
    """text typed by xdotool in xvfb into a new xterm, as the xterm read it;
    erased is typed first and taken back with Ctrl+U (the terminal's kill
    character), a shortcut through the client's layout."""
    xterm, win, out = rdp.line_xterm(s, geometry=geometry, title=title)
    s.park_pointer()
    rdp.click_through(s, xvfb, client, win, what="%s to be focused after a click "
                      "through RDP" % title)
    if erased:
        xvfb.xdotool("type", "--delay", "40", erased)
        xvfb.xdotool("key", "ctrl+u")
    xvfb.xdotool("type", "--delay", "40", text)
    xvfb.xdotool("key", "Return")
    return s.wait_written(xterm, out)


def main():
    port = vnc.free_port()
    with Session(outputs=["1024x768"], args=rdp.rdp_args(port)) as s:
        rdp.wait_listening(s, port)
        with rdp.client_in_xvfb(s, port, "typist", "unused",
                                ["/size:1024x768", "/kbd:0x407"], keymap="de",
                                name="xfreerdp-de") as (de_xvfb, de_client), \
                rdp.client_in_xvfb(s, port, "typist", "unused",
                                   ["/size:1024x768", "/kbd:0x409"], keymap="us",
                                   name="xfreerdp-us") as (us_xvfb, us_client):
            expect_eq(typed(s, de_xvfb, de_client, "german one", "40x5+40+60",
                            "\u00e4\u20ac@yz", erased="zu"), "\u00e4\u20ac@yz\n",
                      "the line a German client typed")
            expect_eq(typed(s, us_xvfb, us_client, "us", "40x5+40+260", '@"['),
                      '@"[\n', "the line a US client typed with a German one logged on")
            expect_eq(typed(s, de_xvfb, de_client, "german two", "40x5+40+460",
                            "\u00d6\u00dc\u00df"), "\u00d6\u00dc\u00df\n",
                      "the German client's capitals and sharp s")
        with rdp.client_in_xvfb(s, port, "typist", "unused",
                                ["/size:1024x768", "/kbd:0x40c"], keymap="fr",
                                name="xfreerdp-fr") as (fr_xvfb, fr_client):
            expect_eq(typed(s, fr_xvfb, fr_client, "french", "40x5+500+60",
                            'azerty&\u00e9"@'), 'azerty&\u00e9"@\n',
                      "the line a French client typed")
        xterm, win, out = rdp.line_xterm(s, geometry="40x5+500+260", title="windows")
        client = rdp.RdpClient(s, port, name="windows-de", user="typist",
                               password_file=rdp.write_secret(s, "unused"),
                               size=(1024, 768), kbd=0x407)
        client.wait_connected()
        client.send("click %d %d" % (win["x"] + win["width"] // 2,
                                     win["y"] + win["height"] // 2))
        s.wait_window(id=win["id"], where=lambda w: w["focused"],
                      what="the xterm to be focused after the test client's click")
        client.send("keys 1d+ e038+ 10 12 e038- 1d- 1c")
        expect_eq(s.wait_written(xterm, out), "@\u20ac\n",
                  "AltGr+Q and AltGr+E sent as Ctrl+AltGr, as Windows does")
        client.close()
        log = s.log_text()
        for layout in ("0x00000407, de", "0x00000409, us", "0x0000040c, fr"):
            harness.expect(layout in log, "oriel's log names the layout %s" % layout)


if __name__ == "__main__":
    harness.run(main)
