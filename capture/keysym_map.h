/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_KEYSYM_MAP_H
#define ORIEL_CAPTURE_KEYSYM_MAP_H

/*
 * Keysym → key lookup for virtual keyboards (VNC and the control API send
 * keysyms; clients want keycodes). Pure xkbcommon, no wlroots, so unit
 * tests link it directly.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xkbcommon/xkbcommon.h>

/* Shift and ISO_Level3_Shift (AltGr) reach levels 1..3 of every common type. */
#define KEYSYM_MAP_MAX_MODIFIERS 2

struct keysym_modifier {
	uint32_t keycode;    /* evdev keycode of the modifier key, e.g. KEY_LEFTSHIFT */
	xkb_mod_mask_t mask; /* the modifiers that holding it sets */
};

struct keysym_mapping {
	uint32_t keycode;          /* evdev keycode (xkb keycode - 8) */
	xkb_level_index_t level;   /* shift level of keycode that yields the keysym */
	xkb_mod_mask_t mods;       /* modifiers that select that level */
	size_t n_modifiers;
	/* Keys to hold while pressing keycode, so that mods is active. */
	struct keysym_modifier modifiers[KEYSYM_MAP_MAX_MODIFIERS];
};

/*
 * Finds the key and modifier keys that produce sym in layout: keys X11
 * clients can receive (xkb keycode <= 255) win, then the lowest level,
 * then the lowest keycode. Levels are used only when Shift and/or
 * ISO_Level3_Shift, as found in this keymap, select them. The mapping
 * assumes no locked modifiers (Caps Lock, NumLock). Returns false when no
 * key produces sym.
 */
bool keysym_map_lookup(struct xkb_keymap *keymap, xkb_layout_index_t layout,
	xkb_keysym_t sym, struct keysym_mapping *out);

/*
 * Finds the modifier key that yields sym (Shift_L, ISO_Level3_Shift, ...) at
 * its first level, preferring the keys a real keyboard has, and the
 * modifiers it sets. Returns false when the keymap has none.
 */
bool keysym_map_modifier_key(struct xkb_keymap *keymap, xkb_layout_index_t layout,
	xkb_keysym_t sym, struct keysym_modifier *out);

#endif
