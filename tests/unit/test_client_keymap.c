/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for a client's keys through its own layout
 * (remote/client_keymap.c), against keymaps from xkb-data.
 */

#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <xkbcommon/xkbcommon.h>
#include "remote/client_keymap.h"
#include "expect.h"

static struct client_keymap *keymap_of(struct xkb_context *context, const char *layout) {
	struct client_keymap *keymap = client_keymap_create(context, layout, "");
	if (!keymap) {
		fprintf(stderr, "cannot compile the '%s' keymap: is xkb-data installed?\n", layout);
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

/* The key gives that keysym on press and release. */
static void types(struct client_keymap *keymap, uint32_t keycode, xkb_keysym_t want,
		const char *what) {
	for (int pressed = 1; pressed >= 0; pressed--) {
		struct client_key key = client_keymap_key(keymap, keycode, pressed);
		EXPECT(key.kind == CLIENT_KEY_KEYSYM && key.sym == want,
			"%s (%s): kind %d sym %s", what, pressed ? "press" : "release", key.kind,
			sym_name(key.sym));
	}
}

static void as_is(struct client_keymap *keymap, uint32_t keycode, bool pressed,
		const char *what) {
	struct client_key key = client_keymap_key(keymap, keycode, pressed);
	EXPECT(key.kind == CLIENT_KEY_KEYCODE && key.keycode == keycode,
		"%s: kind %d keycode %u", what, key.kind, key.keycode);
}

static void nothing(struct client_keymap *keymap, uint32_t keycode, bool pressed,
		const char *what) {
	struct client_key key = client_keymap_key(keymap, keycode, pressed);
	EXPECT(key.kind == CLIENT_KEY_NONE, "%s: kind %d", what, key.kind);
}

static void german(struct xkb_context *context) {
	struct client_keymap *de = keymap_of(context, "de");
	types(de, KEY_Y, XKB_KEY_z, "de: the key at us Y");
	types(de, KEY_Z, XKB_KEY_y, "de: the key at us Z");
	types(de, KEY_APOSTROPHE, XKB_KEY_adiaeresis, "de: ä");
	types(de, KEY_EQUAL, XKB_KEY_dead_acute, "de: the acute dead key");
	/* AltGr chooses level 3 and goes nowhere itself. */
	nothing(de, KEY_RIGHTALT, true, "de: AltGr press");
	types(de, KEY_Q, XKB_KEY_at, "de: AltGr+Q");
	types(de, KEY_E, XKB_KEY_EuroSign, "de: AltGr+E");
	struct client_key at = client_keymap_key(de, KEY_Q, true);
	client_keymap_key(de, KEY_Q, false);
	EXPECT(at.alone, "de: a keysym AltGr chose is typed alone");
	nothing(de, KEY_RIGHTALT, false, "de: AltGr release");
	/* Windows sends AltGr as Ctrl+Alt: Ctrl must not make € a shortcut. */
	as_is(de, KEY_LEFTCTRL, true, "de: Windows' Ctrl of AltGr");
	nothing(de, KEY_RIGHTALT, true, "de: Windows' AltGr");
	types(de, KEY_E, XKB_KEY_EuroSign, "de: Ctrl+AltGr+E");
	nothing(de, KEY_RIGHTALT, false, "de: Windows' AltGr release");
	as_is(de, KEY_LEFTCTRL, false, "de: Windows' Ctrl of AltGr release");
	types(de, KEY_Q, XKB_KEY_q, "de: Q once AltGr is up");
	struct client_key q = client_keymap_key(de, KEY_Q, true);
	client_keymap_key(de, KEY_Q, false);
	EXPECT(!q.alone, "de: q is typed with the modifiers the client holds");
	/* Shift goes to the session as a key, and chooses the client's level 2. */
	as_is(de, KEY_LEFTSHIFT, true, "de: Shift press");
	types(de, KEY_2, XKB_KEY_quotedbl, "de: Shift+2");
	types(de, KEY_SEMICOLON, XKB_KEY_Odiaeresis, "de: Shift+ö");
	types(de, KEY_MINUS, XKB_KEY_question, "de: Shift+ß");
	/* A release gives what the press gave, whatever Shift did meanwhile. */
	struct client_key press = client_keymap_key(de, KEY_7, true);
	as_is(de, KEY_LEFTSHIFT, false, "de: Shift release");
	struct client_key repeat = client_keymap_key(de, KEY_7, true);
	struct client_key release = client_keymap_key(de, KEY_7, false);
	EXPECT(press.sym == XKB_KEY_slash && repeat.sym == XKB_KEY_slash &&
		release.sym == XKB_KEY_slash, "de: Shift+7 gave %s, %s on repeat, %s on release",
		sym_name(press.sym), sym_name(repeat.sym), sym_name(release.sym));
	/* Keys that mean the same everywhere pass as they are. */
	as_is(de, KEY_LEFTCTRL, true, "de: Ctrl press");
	types(de, KEY_C, XKB_KEY_c, "de: Ctrl+C is c, with Ctrl held in the session");
	as_is(de, KEY_LEFTCTRL, false, "de: Ctrl release");
	as_is(de, KEY_LEFTALT, true, "de: Alt");
	as_is(de, KEY_LEFTALT, false, "de: Alt release");
	as_is(de, KEY_F4, true, "de: F4");
	as_is(de, KEY_F4, false, "de: F4 release");
	as_is(de, KEY_SPACE, true, "de: Space");
	as_is(de, KEY_SPACE, false, "de: Space release");
	as_is(de, KEY_ENTER, true, "de: Return");
	as_is(de, KEY_ENTER, false, "de: Return release");
	as_is(de, KEY_LEFT, true, "de: Left");
	as_is(de, KEY_LEFT, false, "de: Left release");
	as_is(de, KEY_KP1, true, "de: keypad 1");
	as_is(de, KEY_KP1, false, "de: keypad 1 release");
	/* Caps Lock is the session's to apply: the client's state ignores it. */
	as_is(de, KEY_CAPSLOCK, true, "de: Caps Lock");
	as_is(de, KEY_CAPSLOCK, false, "de: Caps Lock release");
	types(de, KEY_A, XKB_KEY_a, "de: a with the client's Caps Lock on");
	/* Synchronize: whatever was held is up. */
	nothing(de, KEY_RIGHTALT, true, "de: AltGr press before a reset");
	client_keymap_reset(de);
	types(de, KEY_Q, XKB_KEY_q, "de: Q after a reset");
	client_keymap_destroy(de);
}

static void french_and_russian(struct xkb_context *context) {
	struct client_keymap *fr = keymap_of(context, "fr");
	types(fr, KEY_Q, XKB_KEY_a, "fr: the key at us Q");
	types(fr, KEY_1, XKB_KEY_ampersand, "fr: the key at us 1");
	types(fr, KEY_2, XKB_KEY_eacute, "fr: the key at us 2");
	types(fr, KEY_SEMICOLON, XKB_KEY_m, "fr: the key at us ;");
	nothing(fr, KEY_RIGHTALT, true, "fr: AltGr press");
	types(fr, KEY_0, XKB_KEY_at, "fr: AltGr+à");
	nothing(fr, KEY_RIGHTALT, false, "fr: AltGr release");
	client_keymap_destroy(fr);

	struct client_keymap *ru = keymap_of(context, "ru");
	types(ru, KEY_C, XKB_KEY_Cyrillic_es, "ru: the key at us C");
	/* Ctrl+С is a shortcut: by the key's place, as Ctrl+C. */
	as_is(ru, KEY_LEFTCTRL, true, "ru: Ctrl press");
	as_is(ru, KEY_C, true, "ru: Ctrl+С");
	as_is(ru, KEY_C, false, "ru: Ctrl+С release");
	as_is(ru, KEY_LEFTCTRL, false, "ru: Ctrl release");
	client_keymap_destroy(ru);

	/* A us client's right Alt is Alt, and goes as a key. */
	struct client_keymap *us = keymap_of(context, "us");
	as_is(us, KEY_RIGHTALT, true, "us: right Alt");
	as_is(us, KEY_RIGHTALT, false, "us: right Alt release");
	types(us, KEY_2, XKB_KEY_2, "us: 2");
	client_keymap_destroy(us);

	EXPECT(!client_keymap_create(context, "de", "no-such-variant"),
		"a made-up variant compiled");
}

int main(void) {
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL);
	german(context);
	french_and_russian(context);
	xkb_context_unref(context);
	return failures != 0;
}
