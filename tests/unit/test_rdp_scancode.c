/* SPDX-License-Identifier: MIT */
/* Unit tests for RDP scancodes to evdev keycodes (remote/rdp/rdp_scancode.c). */

#include <linux/input-event-codes.h>
#include <stdio.h>
#include "remote/rdp/rdp_scancode.h"
#include "tests/unit/expect.h"

static void key(uint8_t scancode, bool extended, uint32_t want) {
	uint32_t got = rdp_scancode_to_evdev(scancode, extended, false);
	EXPECT(got == want, "scancode %s0x%02x: got %u, want %u", extended ? "E0 " : "",
		scancode, got, want);
}

int main(void) {
	/* Plain keys are set 1 itself. */
	key(0x01, false, KEY_ESC);
	key(0x10, false, KEY_Q);
	key(0x1C, false, KEY_ENTER);
	key(0x1D, false, KEY_LEFTCTRL);
	key(0x2A, false, KEY_LEFTSHIFT);
	key(0x38, false, KEY_LEFTALT);
	key(0x39, false, KEY_SPACE);
	key(0x45, false, KEY_NUMLOCK);
	key(0x56, false, KEY_102ND); /* < > | on ISO keyboards */
	key(0x57, false, KEY_F11);
	key(0x58, false, KEY_F12);
	key(0x73, false, KEY_RO);
	key(0x7D, false, KEY_YEN);
	key(0x64, false, KEY_F13);
	/* E0 keys have codes of their own. */
	key(0x38, true, KEY_RIGHTALT); /* AltGr */
	key(0x1D, true, KEY_RIGHTCTRL);
	key(0x1C, true, KEY_KPENTER);
	key(0x35, true, KEY_KPSLASH);
	key(0x48, true, KEY_UP);
	key(0x50, true, KEY_DOWN);
	key(0x4B, true, KEY_LEFT);
	key(0x4D, true, KEY_RIGHT);
	key(0x47, true, KEY_HOME);
	key(0x4F, true, KEY_END);
	key(0x52, true, KEY_INSERT);
	key(0x53, true, KEY_DELETE);
	key(0x49, true, KEY_PAGEUP);
	key(0x51, true, KEY_PAGEDOWN);
	key(0x5B, true, KEY_LEFTMETA);
	key(0x5D, true, KEY_COMPOSE);
	key(0x37, true, KEY_SYSRQ);
	/* Pause: E1 1D (then 45, which has no key of its own). */
	EXPECT(rdp_scancode_to_evdev(0x1D, false, true) == KEY_PAUSE, "E1 1D is Pause");
	EXPECT(rdp_scancode_to_evdev(0x45, false, true) == 0, "E1 45 is nothing");
	/* Nothing for what no keyboard sends. */
	key(0x00, false, 0);
	key(0x60, false, 0);
	key(0x02, true, 0);
	key(0xFF, false, 0);
	return failures != 0;
}
