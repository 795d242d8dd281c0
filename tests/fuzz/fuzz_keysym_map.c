/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for keysym → key lookup (capture/keysym_map.c), the
 * path of every keysym a VNC viewer or the control API sends. The input
 * is a sequence of 5-byte records: a selector byte (keymap us or de,
 * layout index 0-3 so out-of-range ones too, lookup or modifier key),
 * then a little-endian 32-bit keysym, any value. Besides memory errors it
 * checks that what the lookup answers really types the keysym: pressing
 * the modifiers it names, then the key, in a fresh xkb state.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xkbcommon/xkbcommon.h>
#include "capture/keysym_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define EVDEV_OFFSET 8
/* Each lookup walks the whole keymap; more records add little. */
#define MAX_RECORDS 64

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-keysym-map: invariant broken: %s\n", what);
		abort();
	}
}

static struct xkb_keymap *compile(struct xkb_context *context, const char *layout) {
	struct xkb_rule_names names = {
		.rules = "evdev", .model = "pc105", .layout = layout, .variant = "", .options = "",
	};
	struct xkb_keymap *keymap = xkb_keymap_new_from_names(context, &names,
		XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (!keymap) {
		fprintf(stderr, "fuzz-keysym-map: cannot compile the '%s' keymap\n", layout);
		abort();
	}
	return keymap;
}

/* Compiled once: replay_main has no LLVMFuzzerInitialize, so lazily. */
static struct xkb_keymap *keymaps[2];

static void init_keymaps(void) {
	if (keymaps[0]) {
		return;
	}
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	check(context != NULL, "xkb context");
	keymaps[0] = compile(context, "us");
	keymaps[1] = compile(context, "de");
	xkb_context_unref(context);
}

/* The keysym the key gives with the mapping's modifier keys held. */
static xkb_keysym_t typed(struct xkb_keymap *keymap, const struct keysym_mapping *m) {
	struct xkb_state *state = xkb_state_new(keymap);
	check(state != NULL, "xkb state");
	for (size_t i = 0; i < m->n_modifiers; i++) {
		xkb_state_update_key(state, m->modifiers[i].keycode + EVDEV_OFFSET, XKB_KEY_DOWN);
	}
	xkb_keysym_t sym = xkb_state_key_get_one_sym(state, m->keycode + EVDEV_OFFSET);
	xkb_state_unref(state);
	return sym;
}

static void check_lookup(struct xkb_keymap *keymap, xkb_layout_index_t layout,
		xkb_keysym_t sym) {
	struct keysym_mapping m;
	if (!keysym_map_lookup(keymap, layout, sym, &m)) {
		return;
	}
	xkb_keycode_t kc = m.keycode + EVDEV_OFFSET;
	check(sym != XKB_KEY_NoSymbol, "NoSymbol is never found");
	check(kc >= xkb_keymap_min_keycode(keymap) && kc <= xkb_keymap_max_keycode(keymap),
		"keycode in the keymap");
	check(m.n_modifiers <= KEYSYM_MAP_MAX_MODIFIERS, "modifier count");
	xkb_mod_mask_t mods = 0;
	for (size_t i = 0; i < m.n_modifiers; i++) {
		check(m.modifiers[i].mask != 0, "a modifier key sets a modifier");
		mods |= m.modifiers[i].mask;
	}
	check(mods == m.mods, "the modifier keys set exactly mods");
	const xkb_keysym_t *syms;
	int n = xkb_keymap_key_get_syms_by_level(keymap, kc, layout, m.level, &syms);
	check(n == 1 && syms[0] == sym, "the key's level yields the keysym");
	/* The first layout is the state's own, so the keys type the keysym. */
	if (layout == 0) {
		check(typed(keymap, &m) == sym, "pressing the keys types the keysym");
	}
}

static void check_modifier_key(struct xkb_keymap *keymap, xkb_layout_index_t layout,
		xkb_keysym_t sym) {
	struct keysym_modifier mod;
	if (!keysym_map_modifier_key(keymap, layout, sym, &mod)) {
		return;
	}
	xkb_keycode_t kc = mod.keycode + EVDEV_OFFSET;
	check(kc >= xkb_keymap_min_keycode(keymap) && kc <= xkb_keymap_max_keycode(keymap),
		"modifier keycode in the keymap");
	check(mod.mask != 0, "a modifier key sets a modifier");
	const xkb_keysym_t *syms;
	int n = xkb_keymap_key_get_syms_by_level(keymap, kc, layout, 0, &syms);
	check(n == 1 && syms[0] == sym, "the modifier key yields the keysym");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	init_keymaps();
	for (size_t i = 0; i + 5 <= size && i / 5 < MAX_RECORDS; i += 5) {
		uint8_t selector = data[i];
		xkb_keysym_t sym = (xkb_keysym_t)data[i + 1] | (xkb_keysym_t)data[i + 2] << 8 |
			(xkb_keysym_t)data[i + 3] << 16 | (xkb_keysym_t)data[i + 4] << 24;
		struct xkb_keymap *keymap = keymaps[selector & 1];
		xkb_layout_index_t layout = (selector >> 1) & 3;
		if (selector & 8) {
			check_modifier_key(keymap, layout, sym);
		} else {
			check_lookup(keymap, layout, sym);
		}
	}
	/* A NULL keymap is refused, not dereferenced. */
	struct keysym_mapping m;
	check(!keysym_map_lookup(NULL, 0, XKB_KEY_a, &m), "NULL keymap");
	return 0;
}
