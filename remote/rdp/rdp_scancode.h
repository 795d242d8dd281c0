/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_SCANCODE_H
#define ORIEL_REMOTE_RDP_RDP_SCANCODE_H

/*
 * RDP keyboard events carry PC scancodes (set 1), with flags for the 0xE0
 * (extended) and 0xE1 (extended1, Pause) prefixes. Linux evdev keycodes
 * are set 1 scancodes for the plain keys, so most map to themselves; the
 * extended keys get their own codes. Pure.
 */

#include <stdbool.h>
#include <stdint.h>

/* The evdev keycode (KEY_*), or 0 for a scancode with no key. */
uint32_t rdp_scancode_to_evdev(uint8_t scancode, bool extended, bool extended1);

#endif
