/* SPDX-License-Identifier: MIT */
#include <linux/input-event-codes.h>
#include "remote/rdp/rdp_scancode.h"

/* 0xE0-prefixed scancodes; the others have no key. */
static uint32_t extended_key(uint8_t scancode) {
	switch (scancode) {
	case 0x10: return KEY_PREVIOUSSONG;
	case 0x19: return KEY_NEXTSONG;
	case 0x1C: return KEY_KPENTER;
	case 0x1D: return KEY_RIGHTCTRL;
	case 0x20: return KEY_MUTE;
	case 0x21: return KEY_CALC;
	case 0x22: return KEY_PLAYPAUSE;
	case 0x24: return KEY_STOPCD;
	case 0x2E: return KEY_VOLUMEDOWN;
	case 0x30: return KEY_VOLUMEUP;
	case 0x32: return KEY_HOMEPAGE;
	case 0x35: return KEY_KPSLASH;
	case 0x37: return KEY_SYSRQ;
	case 0x38: return KEY_RIGHTALT;
	case 0x46: return KEY_PAUSE; /* Ctrl+Break */
	case 0x47: return KEY_HOME;
	case 0x48: return KEY_UP;
	case 0x49: return KEY_PAGEUP;
	case 0x4B: return KEY_LEFT;
	case 0x4D: return KEY_RIGHT;
	case 0x4F: return KEY_END;
	case 0x50: return KEY_DOWN;
	case 0x51: return KEY_PAGEDOWN;
	case 0x52: return KEY_INSERT;
	case 0x53: return KEY_DELETE;
	case 0x5B: return KEY_LEFTMETA;
	case 0x5C: return KEY_RIGHTMETA;
	case 0x5D: return KEY_COMPOSE;
	case 0x5E: return KEY_POWER;
	case 0x5F: return KEY_SLEEP;
	case 0x63: return KEY_WAKEUP;
	case 0x65: return KEY_SEARCH;
	case 0x66: return KEY_BOOKMARKS;
	case 0x67: return KEY_REFRESH;
	case 0x68: return KEY_STOP;
	case 0x69: return KEY_FORWARD;
	case 0x6A: return KEY_BACK;
	case 0x6B: return KEY_COMPUTER;
	case 0x6C: return KEY_MAIL;
	case 0x6D: return KEY_MEDIA;
	default: return 0;
	}
}

/* Plain scancodes past F12 (0x58), where evdev's numbering differs. */
static uint32_t high_key(uint8_t scancode) {
	switch (scancode) {
	case 0x59: return KEY_KPEQUAL;
	case 0x64: return KEY_F13;
	case 0x65: return KEY_F14;
	case 0x66: return KEY_F15;
	case 0x67: return KEY_F16;
	case 0x68: return KEY_F17;
	case 0x69: return KEY_F18;
	case 0x6A: return KEY_F19;
	case 0x6B: return KEY_F20;
	case 0x6C: return KEY_F21;
	case 0x6D: return KEY_F22;
	case 0x6E: return KEY_F23;
	case 0x76: return KEY_F24;
	case 0x70: return KEY_KATAKANAHIRAGANA;
	case 0x73: return KEY_RO;
	case 0x79: return KEY_HENKAN;
	case 0x7B: return KEY_MUHENKAN;
	case 0x7D: return KEY_YEN;
	case 0x7E: return KEY_KPCOMMA;
	case 0xF1: return KEY_HANJA;
	case 0xF2: return KEY_HANGEUL;
	default: return 0;
	}
}

uint32_t rdp_scancode_to_evdev(uint8_t scancode, bool extended, bool extended1) {
	if (extended1) {
		/* Pause comes as E1 1D 45: the 0x1D half is the key. */
		return scancode == 0x1D ? KEY_PAUSE : 0;
	}
	if (extended) {
		return extended_key(scancode);
	}
	if (scancode >= 0x01 && scancode <= 0x58 && scancode != 0x54 && scancode != 0x55) {
		return scancode; /* KEY_ESC .. KEY_F12: set 1 itself */
	}
	if (scancode == 0x54) {
		return KEY_SYSRQ; /* Alt+PrintScreen */
	}
	return high_key(scancode);
}
