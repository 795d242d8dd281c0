/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for keysym → key lookup (capture/keysym_map.c) against real
 * keymaps compiled from xkb-data.
 */

#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <xkbcommon/xkbcommon.h>
#include "capture/keysym_map.h"
#include "expect.h"


static struct xkb_keymap *compile(struct xkb_context *context, const char *layout) {
	/* Spelt out in full so XKB_DEFAULT_* in the environment changes nothing. */
	struct xkb_rule_names names = {
		.rules = "evdev",
		.model = "pc105",
		.layout = layout,
		.variant = "",
		.options = "",
	};
	struct xkb_keymap *keymap = xkb_keymap_new_from_names(context, &names,
		XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (!keymap) {
		fprintf(stderr, "cannot compile the '%s' keymap: is xkb-data installed?\n",
			layout);
		exit(1);
	}
	return keymap;
}

static const char *sym_name(xkb_keysym_t sym) {
	static char name[64];
	if (xkb_keysym_get_name(sym, name, sizeof(name)) < 0) {
		snprintf(name, sizeof(name), "0x%x", sym);
	}
	return name;
}

/*
 * sym must map to keycode with exactly the listed modifier keys
 * (0, 1 or 2 of KEY_LEFTSHIFT and KEY_RIGHTALT, in that order).
 */
static void expect_key(int line, struct xkb_keymap *keymap, const char *layout,
		xkb_keysym_t sym, uint32_t keycode, size_t n_mods, uint32_t mod0, uint32_t mod1) {
	struct keysym_mapping m;
	if (!keysym_map_lookup(keymap, 0, sym, &m)) {
		fprintf(stderr, "%s:%d: FAILED: %s on %s: no key found\n", __FILE__, line,
			sym_name(sym), layout);
		failures++;
		return;
	}
	uint32_t expected_mods[2] = { mod0, mod1 };
	bool ok = m.keycode == keycode && m.n_modifiers == n_mods;
	for (size_t i = 0; ok && i < n_mods; i++) {
		ok = m.modifiers[i].keycode == expected_mods[i] && m.modifiers[i].mask != 0;
	}
	if (!ok) {
		fprintf(stderr, "%s:%d: FAILED: %s on %s: got keycode %u level %u with %zu "
			"modifier keys (%u, %u), expected keycode %u with %zu (%u, %u)\n",
			__FILE__, line, sym_name(sym), layout, m.keycode, m.level,
			m.n_modifiers, m.n_modifiers > 0 ? m.modifiers[0].keycode : 0,
			m.n_modifiers > 1 ? m.modifiers[1].keycode : 0,
			keycode, n_mods, mod0, mod1);
		failures++;
	}
}

#define PLAIN(km, l, sym, key) expect_key(__LINE__, km, l, sym, key, 0, 0, 0)
#define SHIFT(km, l, sym, key) expect_key(__LINE__, km, l, sym, key, 1, KEY_LEFTSHIFT, 0)
#define ALTGR(km, l, sym, key) expect_key(__LINE__, km, l, sym, key, 1, KEY_RIGHTALT, 0)
#define SHIFT_ALTGR(km, l, sym, key) \
	expect_key(__LINE__, km, l, sym, key, 2, KEY_LEFTSHIFT, KEY_RIGHTALT)

/* Pressing the keys the mapping names must really yield the keysym. */
static void expect_roundtrip(struct xkb_keymap *keymap, const char *layout,
		xkb_keysym_t sym) {
	struct keysym_mapping m;
	if (!keysym_map_lookup(keymap, 0, sym, &m)) {
		EXPECT(false, "%s on %s: no key found", sym_name(sym), layout);
		return;
	}
	struct xkb_state *state = xkb_state_new(keymap);
	for (size_t i = 0; i < m.n_modifiers; i++) {
		xkb_state_update_key(state, m.modifiers[i].keycode + 8, XKB_KEY_DOWN);
	}
	xkb_state_update_key(state, m.keycode + 8, XKB_KEY_DOWN);
	xkb_keysym_t got = xkb_state_key_get_one_sym(state, m.keycode + 8);
	EXPECT(got == sym, "%s on %s: the keys yield %s", sym_name(sym), layout,
		sym_name(got));
	EXPECT((xkb_state_serialize_mods(state, XKB_STATE_MODS_EFFECTIVE) & m.mods) == m.mods,
		"%s on %s: modifiers 0x%x not all active", sym_name(sym), layout, m.mods);
	xkb_state_unref(state);
}

static void test_us(struct xkb_context *context) {
	struct xkb_keymap *us = compile(context, "us");
	PLAIN(us, "us", XKB_KEY_a, KEY_A);
	SHIFT(us, "us", XKB_KEY_A, KEY_A);
	PLAIN(us, "us", XKB_KEY_1, KEY_1);
	SHIFT(us, "us", XKB_KEY_at, KEY_2);
	SHIFT(us, "us", XKB_KEY_bar, KEY_BACKSLASH);
	PLAIN(us, "us", XKB_KEY_space, KEY_SPACE);
	PLAIN(us, "us", XKB_KEY_Return, KEY_ENTER);
	PLAIN(us, "us", XKB_KEY_Escape, KEY_ESC);
	PLAIN(us, "us", XKB_KEY_Shift_L, KEY_LEFTSHIFT);
	PLAIN(us, "us", XKB_KEY_F1, KEY_F1);
	/*
	 * us has no level-3 keysyms on letters; only evdev's KEY_EURO, which X11
	 * cannot carry, yields the Euro sign: used only when nothing else does.
	 */
	struct keysym_mapping m;
	PLAIN(us, "us", XKB_KEY_EuroSign, KEY_EURO);
	EXPECT(!keysym_map_lookup(us, 0, XKB_KEY_adiaeresis, &m), "adiaeresis found on us");
	/* Not a keysym any keymap has, and not a keysym at all. */
	EXPECT(!keysym_map_lookup(us, 0, XKB_KEY_Greek_alpha, &m), "Greek_alpha on us");
	EXPECT(!keysym_map_lookup(us, 0, 0x0fffffff, &m), "bogus keysym found");
	EXPECT(!keysym_map_lookup(us, 0, XKB_KEY_NoSymbol, &m), "NoSymbol found");
	EXPECT(!keysym_map_lookup(NULL, 0, XKB_KEY_a, &m), "lookup without a keymap");

	struct keysym_modifier mod;
	EXPECT(keysym_map_modifier_key(us, 0, XKB_KEY_Shift_L, &mod) &&
		mod.keycode == KEY_LEFTSHIFT, "Shift_L is not KEY_LEFTSHIFT");
	/* An out-of-range layout wraps to the only one, as in xkb_state. */
	SHIFT(us, "us", XKB_KEY_A, KEY_A);
	EXPECT(keysym_map_lookup(us, 3, XKB_KEY_A, &m) && m.keycode == KEY_A,
		"layout 3 does not wrap");

	const xkb_keysym_t roundtrip[] = {
		XKB_KEY_a, XKB_KEY_A, XKB_KEY_at, XKB_KEY_asciitilde, XKB_KEY_braceleft,
		XKB_KEY_question, XKB_KEY_quotedbl, XKB_KEY_less,
	};
	for (size_t i = 0; i < sizeof(roundtrip) / sizeof(roundtrip[0]); i++) {
		expect_roundtrip(us, "us", roundtrip[i]);
	}
	xkb_keymap_unref(us);
}

static void test_de(struct xkb_context *context) {
	struct xkb_keymap *de = compile(context, "de");
	PLAIN(de, "de", XKB_KEY_a, KEY_A);
	SHIFT(de, "de", XKB_KEY_A, KEY_A);
	PLAIN(de, "de", XKB_KEY_z, KEY_Y); /* QWERTZ */
	PLAIN(de, "de", XKB_KEY_y, KEY_Z);
	ALTGR(de, "de", XKB_KEY_at, KEY_Q);
	ALTGR(de, "de", XKB_KEY_bar, KEY_102ND);
	PLAIN(de, "de", XKB_KEY_adiaeresis, KEY_APOSTROPHE);
	SHIFT(de, "de", XKB_KEY_Adiaeresis, KEY_APOSTROPHE);
	PLAIN(de, "de", XKB_KEY_ssharp, KEY_MINUS);
	ALTGR(de, "de", XKB_KEY_EuroSign, KEY_E);
	ALTGR(de, "de", XKB_KEY_braceleft, KEY_7);
	ALTGR(de, "de", XKB_KEY_backslash, KEY_MINUS);
	SHIFT(de, "de", XKB_KEY_quotedbl, KEY_2);

	struct keysym_modifier mod;
	EXPECT(keysym_map_modifier_key(de, 0, XKB_KEY_ISO_Level3_Shift, &mod) &&
		mod.keycode == KEY_RIGHTALT, "ISO_Level3_Shift is not KEY_RIGHTALT on de");

	struct keysym_mapping m;
	EXPECT(!keysym_map_lookup(de, 0, XKB_KEY_Greek_alpha, &m), "Greek_alpha on de");

	const xkb_keysym_t roundtrip[] = {
		XKB_KEY_at, XKB_KEY_bar, XKB_KEY_EuroSign, XKB_KEY_adiaeresis,
		XKB_KEY_Udiaeresis, XKB_KEY_asciitilde, XKB_KEY_bracketright, XKB_KEY_mu,
	};
	for (size_t i = 0; i < sizeof(roundtrip) / sizeof(roundtrip[0]); i++) {
		expect_roundtrip(de, "de", roundtrip[i]);
	}
	/* A level-4 keysym needs Shift and AltGr together. */
	if (keysym_map_lookup(de, 0, XKB_KEY_questiondown, &m)) {
		EXPECT(m.n_modifiers == 2, "questiondown on de uses %zu modifier keys",
			m.n_modifiers);
		expect_roundtrip(de, "de", XKB_KEY_questiondown);
	}
	xkb_keymap_unref(de);
}

/* Two layouts: the layout index selects which keysyms count. */
static void test_us_de(struct xkb_context *context) {
	struct xkb_keymap *both = compile(context, "us,de");
	struct keysym_mapping m;
	EXPECT(keysym_map_lookup(both, 0, XKB_KEY_z, &m) && m.keycode == KEY_Z,
		"z on layout 0 (us) is keycode %u", m.keycode);
	EXPECT(keysym_map_lookup(both, 1, XKB_KEY_z, &m) && m.keycode == KEY_Y,
		"z on layout 1 (de) is keycode %u", m.keycode);
	EXPECT(!keysym_map_lookup(both, 0, XKB_KEY_adiaeresis, &m),
		"adiaeresis found on layout 0 (us)");
	EXPECT(keysym_map_lookup(both, 1, XKB_KEY_adiaeresis, &m) &&
		m.keycode == KEY_APOSTROPHE, "adiaeresis on layout 1 (de)");
	xkb_keymap_unref(both);
}

int main(void) {
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	if (!context) {
		fprintf(stderr, "cannot create an xkb context\n");
		return 1;
	}
	test_us(context);
	test_de(context);
	test_us_de(context);
	xkb_context_unref(context);
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("keysym_map: all tests passed\n");
	return 0;
}
