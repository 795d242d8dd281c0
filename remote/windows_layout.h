/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_WINDOWS_LAYOUT_H
#define ORIEL_REMOTE_WINDOWS_LAYOUT_H

/*
 * The keyboard layout an RDP client announces (a Windows keyboard layout
 * ID, "KLID", and keyboard type, as in Client Core Data) as xkb layout
 * and variant names of the evdev rules. Pure.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Client Core Data's keyboardType values that name a layout by themselves. */
#define WINDOWS_KEYBOARD_TYPE_JAPANESE 7
#define WINDOWS_KEYBOARD_TYPE_KOREAN 8

struct windows_layout {
	uint32_t klid;       /* e.g. 0x00000407, 0x00010409 */
	const char *layout;  /* xkb layout, e.g. "de" */
	const char *variant; /* xkb variant, "" for the layout's default */
};

/*
 * The xkb names for klid: the exact ID, else its language's default
 * layout (the low 16 bits, which IME IDs such as 0xE0010411 keep), else
 * the one the keyboard type implies (Japanese, Korean). NULL when unknown.
 */
const struct windows_layout *windows_layout_find(uint32_t klid, uint32_t keyboard_type);

/* Every entry of the table, for tests. */
const struct windows_layout *windows_layout_table(size_t *n);

#endif
