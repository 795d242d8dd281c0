/* SPDX-License-Identifier: MIT */
#include <linux/input-event-codes.h>
#include <string.h>
#include "capture/keysym_map.h"

/* xkb keycodes are evdev keycodes plus 8, for historical X11 reasons. */
#define EVDEV_OFFSET 8
/* Masks one level can have in a key type; real types have one or two. */
#define MAX_MASKS 16
/* The highest keycode the X11 protocol can carry. */
#define MAX_X11_KEYCODE 255

/* The one keysym a level yields; levels with several keysyms never match. */
static bool level_yields(struct xkb_keymap *keymap, xkb_keycode_t kc,
		xkb_layout_index_t layout, xkb_level_index_t level, xkb_keysym_t sym) {
	const xkb_keysym_t *syms;
	int n = xkb_keymap_key_get_syms_by_level(keymap, kc, layout, level, &syms);
	return n == 1 && syms[0] == sym;
}

/*
 * The modifiers a key sets while held, learnt by pressing it in a scratch
 * state: the keymap's modmap and actions decide, not the keysym's name.
 */
static xkb_mod_mask_t modifier_mask(struct xkb_keymap *keymap, xkb_keycode_t kc,
		xkb_layout_index_t layout) {
	struct xkb_state *state = xkb_state_new(keymap);
	if (!state) {
		return 0;
	}
	xkb_state_update_mask(state, 0, 0, 0, 0, 0, layout);
	xkb_state_update_key(state, kc, XKB_KEY_DOWN);
	xkb_mod_mask_t mask = xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED);
	xkb_state_unref(state);
	return mask;
}

static bool try_modifier_key(struct xkb_keymap *keymap, xkb_layout_index_t layout,
		xkb_keycode_t kc, xkb_keysym_t sym, struct keysym_modifier *out) {
	if (kc < EVDEV_OFFSET || xkb_keymap_num_layouts_for_key(keymap, kc) == 0 ||
			!level_yields(keymap, kc, layout, 0, sym)) {
		return false;
	}
	xkb_mod_mask_t mask = modifier_mask(keymap, kc, layout);
	if (mask == 0) {
		return false; /* the keysym is there but the key sets nothing */
	}
	out->keycode = kc - EVDEV_OFFSET;
	out->mask = mask;
	return true;
}

bool keysym_map_modifier_key(struct xkb_keymap *keymap, xkb_layout_index_t layout,
		xkb_keysym_t sym, struct keysym_modifier *out) {
	if (!keymap) {
		return false;
	}
	/*
	 * Keymaps often give a modifier keysym to several keys (pc has an extra
	 * <LVL3> key, keycode 92); clients and remote peers expect the keys a
	 * real keyboard has, so those come first.
	 */
	static const uint32_t preferred[] = {
		KEY_LEFTSHIFT, KEY_RIGHTSHIFT, KEY_RIGHTALT, KEY_LEFTALT,
		KEY_LEFTCTRL, KEY_RIGHTCTRL, KEY_LEFTMETA, KEY_RIGHTMETA,
	};
	xkb_keycode_t min = xkb_keymap_min_keycode(keymap);
	xkb_keycode_t max = xkb_keymap_max_keycode(keymap);
	for (size_t i = 0; i < sizeof(preferred) / sizeof(preferred[0]); i++) {
		xkb_keycode_t kc = preferred[i] + EVDEV_OFFSET;
		if (kc >= min && kc <= max &&
				try_modifier_key(keymap, layout, kc, sym, out)) {
			return true;
		}
	}
	for (xkb_keycode_t kc = min; kc <= max && kc != 0; kc++) {
		if (try_modifier_key(keymap, layout, kc, sym, out)) {
			return true;
		}
	}
	return false;
}

/* The ways to reach a level: nothing, Shift, Level3, or both. */
struct combination {
	xkb_mod_mask_t mask;
	size_t n_modifiers;
	struct keysym_modifier modifiers[KEYSYM_MAP_MAX_MODIFIERS];
};

static size_t list_combinations(struct xkb_keymap *keymap, xkb_layout_index_t layout,
		struct combination combos[4]) {
	struct keysym_modifier shift, level3;
	bool have_shift = keysym_map_modifier_key(keymap, layout, XKB_KEY_Shift_L, &shift) ||
		keysym_map_modifier_key(keymap, layout, XKB_KEY_Shift_R, &shift);
	bool have_level3 = keysym_map_modifier_key(keymap, layout,
		XKB_KEY_ISO_Level3_Shift, &level3);

	size_t n = 0;
	combos[n++] = (struct combination){ .mask = 0 };
	if (have_shift) {
		combos[n++] = (struct combination){
			.mask = shift.mask, .n_modifiers = 1, .modifiers = { shift },
		};
	}
	if (have_level3) {
		combos[n++] = (struct combination){
			.mask = level3.mask, .n_modifiers = 1, .modifiers = { level3 },
		};
	}
	if (have_shift && have_level3) {
		combos[n++] = (struct combination){
			.mask = shift.mask | level3.mask, .n_modifiers = 2,
			.modifiers = { shift, level3 },
		};
	}
	return n;
}

/* A combination of held modifier keys that selects level, if any. */
static const struct combination *find_combination(struct xkb_keymap *keymap,
		xkb_keycode_t kc, xkb_layout_index_t layout, xkb_level_index_t level,
		const struct combination *combos, size_t n_combos) {
	xkb_mod_mask_t masks[MAX_MASKS];
	size_t n_masks = xkb_keymap_key_get_mods_for_level(keymap, kc, layout, level,
		masks, MAX_MASKS);
	/* Combinations are in order of preference: fewest keys held first. */
	for (size_t c = 0; c < n_combos; c++) {
		for (size_t m = 0; m < n_masks; m++) {
			if (masks[m] == combos[c].mask) {
				return &combos[c];
			}
		}
	}
	return NULL;
}

/*
 * Lowest level first, so 'a' is a plain key press even where some key has
 * it on a higher level too; the loop ends when no key in [min, max] has a
 * level this high. xkbcommon wraps an out-of-range layout like the state
 * does.
 */
static bool lookup_in_range(struct xkb_keymap *keymap, xkb_layout_index_t layout,
		xkb_keysym_t sym, xkb_keycode_t min, xkb_keycode_t max,
		const struct combination *combos, size_t n_combos,
		struct keysym_mapping *out) {
	for (xkb_level_index_t level = 0;; level++) {
		bool any_key_has_level = false;
		for (xkb_keycode_t kc = min; kc <= max && kc != 0; kc++) {
			if (xkb_keymap_num_layouts_for_key(keymap, kc) == 0 ||
					level >= xkb_keymap_num_levels_for_key(keymap, kc, layout)) {
				continue;
			}
			any_key_has_level = true;
			if (!level_yields(keymap, kc, layout, level, sym)) {
				continue;
			}
			const struct combination *combo =
				find_combination(keymap, kc, layout, level, combos, n_combos);
			if (!combo) {
				continue; /* e.g. a level only NumLock or Ctrl selects */
			}
			memset(out, 0, sizeof(*out));
			out->keycode = kc - EVDEV_OFFSET;
			out->level = level;
			out->mods = combo->mask;
			out->n_modifiers = combo->n_modifiers;
			memcpy(out->modifiers, combo->modifiers, sizeof(out->modifiers));
			return true;
		}
		if (!any_key_has_level) {
			return false;
		}
	}
}

bool keysym_map_lookup(struct xkb_keymap *keymap, xkb_layout_index_t layout,
		xkb_keysym_t sym, struct keysym_mapping *out) {
	if (!keymap || sym == XKB_KEY_NoSymbol) {
		return false;
	}
	struct combination combos[4];
	size_t n_combos = list_combinations(keymap, layout, combos);

	xkb_keycode_t min = xkb_keymap_min_keycode(keymap);
	xkb_keycode_t max = xkb_keymap_max_keycode(keymap);
	if (min < EVDEV_OFFSET) {
		min = EVDEV_OFFSET; /* below 8 there is no evdev keycode to send */
	}
	/*
	 * X11 keycodes stop at 255, so Xwayland drops keys above it: a key X
	 * clients can see wins over a lower level on such a key (evdev's
	 * KEY_EURO yields EuroSign at level 1, AltGr+E does too on de).
	 */
	if (min <= MAX_X11_KEYCODE && lookup_in_range(keymap, layout, sym, min,
			max < MAX_X11_KEYCODE ? max : MAX_X11_KEYCODE, combos, n_combos, out)) {
		return true;
	}
	return max > MAX_X11_KEYCODE && lookup_in_range(keymap, layout, sym,
		min > MAX_X11_KEYCODE ? min : MAX_X11_KEYCODE + 1, max, combos, n_combos, out);
}
