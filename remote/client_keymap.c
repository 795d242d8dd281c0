/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include "remote/client_keymap.h"
#include "common/util.h"

/* RDP's scancodes all become evdev keycodes below this. */
#define MAX_CLIENT_KEYCODE 255

struct client_keymap {
	struct xkb_keymap *keymap;
	struct xkb_state *state;
	/* What each key that is down (is_down) gave the session. */
	struct client_key down[MAX_CLIENT_KEYCODE + 1];
	bool is_down[MAX_CLIENT_KEYCODE + 1];
	int level_shifts_down; /* AltGr and its kin the client holds */
};

struct client_keymap *client_keymap_create(struct xkb_context *context, const char *layout,
		const char *variant) {
	/* Explicit rules: XKB_DEFAULT_* of oriel's environment are the session's. */
	struct xkb_rule_names names = {
		.rules = "evdev",
		.model = "pc105",
		.layout = layout,
		.variant = variant ? variant : "",
		.options = "",
	};
	struct xkb_keymap *xkb_keymap = xkb_keymap_new_from_names(context, &names,
		XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (!xkb_keymap) {
		return NULL;
	}
	struct xkb_state *state = xkb_state_new(xkb_keymap);
	if (!state) {
		xkb_keymap_unref(xkb_keymap);
		return NULL;
	}
	struct client_keymap *keymap = zalloc(sizeof(*keymap));
	keymap->keymap = xkb_keymap;
	keymap->state = state;
	return keymap;
}

void client_keymap_destroy(struct client_keymap *keymap) {
	if (!keymap) {
		return;
	}
	xkb_state_unref(keymap->state);
	xkb_keymap_unref(keymap->keymap);
	free(keymap);
}

void client_keymap_reset(struct client_keymap *keymap) {
	struct xkb_state *state = xkb_state_new(keymap->keymap);
	if (state) {
		xkb_state_unref(keymap->state);
		keymap->state = state;
	}
	memset(keymap->down, 0, sizeof(keymap->down));
	memset(keymap->is_down, 0, sizeof(keymap->is_down));
	keymap->level_shifts_down = 0;
}

/* AltGr and its kin: they choose the client's keysyms, nothing else. */
static bool is_level_shift(xkb_keysym_t sym) {
	return (sym >= XKB_KEY_ISO_Lock && sym <= XKB_KEY_ISO_Level5_Lock) ||
		sym == XKB_KEY_Mode_switch;
}

/*
 * The lock keys go to the session as keys and are left out of the
 * client's state: the session's lock state applies to what is typed
 * there (and follows the client's on Synchronize).
 */
static bool is_lock(xkb_keysym_t sym) {
	return sym == XKB_KEY_Caps_Lock || sym == XKB_KEY_Shift_Lock ||
		sym == XKB_KEY_Num_Lock || sym == XKB_KEY_Scroll_Lock;
}

static bool is_dead(xkb_keysym_t sym) {
	return sym >= XKB_KEY_dead_grave && sym <= XKB_KEY_dead_longsolidusoverlay;
}

/* A key that types a character, or starts one (dead keys); not Space, not the keypad. */
static bool is_character(xkb_keysym_t sym) {
	if (is_dead(sym)) {
		return true;
	}
	if (sym >= XKB_KEY_KP_Space && sym <= XKB_KEY_KP_Equal) {
		return false;
	}
	uint32_t c = xkb_keysym_to_utf32(sym);
	return c > 0x20 && c != 0x7F;
}

/* Ctrl, Alt or Super held: a shortcut, which goes by the key's place. */
static bool shortcut_held(struct xkb_state *state) {
	static const char *const mods[] = { XKB_MOD_NAME_CTRL, XKB_MOD_NAME_ALT,
		XKB_MOD_NAME_LOGO };
	for (size_t i = 0; i < ARRAY_LEN(mods); i++) {
		if (xkb_state_mod_name_is_active(state, mods[i], XKB_STATE_MODS_EFFECTIVE) > 0) {
			return true;
		}
	}
	return false;
}

/* The key's keysym at its first level; NoSymbol for none or several. */
static xkb_keysym_t base_sym(struct client_keymap *keymap, xkb_keycode_t kc) {
	xkb_layout_index_t layout = xkb_state_key_get_layout(keymap->state, kc);
	const xkb_keysym_t *syms;
	if (layout == XKB_LAYOUT_INVALID ||
			xkb_keymap_key_get_syms_by_level(keymap->keymap, kc, layout, 0, &syms) != 1) {
		return XKB_KEY_NoSymbol;
	}
	return syms[0];
}

static struct client_key decide(struct client_keymap *keymap, uint32_t keycode,
		bool *feed_state) {
	struct client_key as_is = { .kind = CLIENT_KEY_KEYCODE, .keycode = keycode };
	xkb_keycode_t kc = keycode + 8;
	xkb_keysym_t base = base_sym(keymap, kc);
	if (base == XKB_KEY_NoSymbol) {
		return as_is;
	}
	if (is_level_shift(base)) {
		keymap->level_shifts_down++;
		return (struct client_key){ .kind = CLIENT_KEY_NONE };
	}
	if (is_lock(base)) {
		*feed_state = false;
		return as_is;
	}
	if (!is_character(base)) {
		return as_is;
	}
	xkb_keysym_t sym = xkb_state_key_get_one_sym(keymap->state, kc);
	if (sym == XKB_KEY_NoSymbol) {
		return (struct client_key){ .kind = CLIENT_KEY_NONE };
	}
	/*
	 * Ctrl+С on a Russian layout is Ctrl+C, as on Windows: shortcuts take
	 * the key's Latin meaning, which is the session's. Not with AltGr held,
	 * which Windows sends as Ctrl+Alt.
	 */
	bool alone = keymap->level_shifts_down > 0;
	if (!alone && sym > 0x7E && !is_dead(sym) && shortcut_held(keymap->state)) {
		return as_is;
	}
	return (struct client_key){ .kind = CLIENT_KEY_KEYSYM, .keycode = keycode, .sym = sym,
		.alone = alone };
}

struct client_key client_keymap_key(struct client_keymap *keymap, uint32_t evdev_keycode,
		bool pressed) {
	if (evdev_keycode == 0 || evdev_keycode > MAX_CLIENT_KEYCODE) {
		return (struct client_key){ .kind = CLIENT_KEY_KEYCODE, .keycode = evdev_keycode };
	}
	if (!pressed) {
		if (!keymap->is_down[evdev_keycode]) {
			return (struct client_key){ .kind = CLIENT_KEY_KEYCODE,
				.keycode = evdev_keycode };
		}
		struct client_key key = keymap->down[evdev_keycode];
		if (is_level_shift(base_sym(keymap, evdev_keycode + 8)) &&
				keymap->level_shifts_down > 0) {
			keymap->level_shifts_down--;
		}
		keymap->is_down[evdev_keycode] = false;
		keymap->down[evdev_keycode] = (struct client_key){ 0 };
		xkb_state_update_key(keymap->state, evdev_keycode + 8, XKB_KEY_UP);
		return key;
	}
	if (keymap->is_down[evdev_keycode]) {
		return keymap->down[evdev_keycode]; /* the client's autorepeat */
	}
	bool feed_state = true;
	struct client_key key = decide(keymap, evdev_keycode, &feed_state);
	if (feed_state) {
		keymap->is_down[evdev_keycode] = true;
		keymap->down[evdev_keycode] = key;
		xkb_state_update_key(keymap->state, evdev_keycode + 8, XKB_KEY_DOWN);
	}
	return key;
}
