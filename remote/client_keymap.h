/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_CLIENT_KEYMAP_H
#define ORIEL_REMOTE_CLIENT_KEYMAP_H

/*
 * A remote client's keys read through the client's own layout (RDP sends
 * key positions, not characters): each client has its keymap and xkb
 * state. Keys that type characters (letters, digits, punctuation, dead
 * keys) become the keysyms the client's layout gives them, to be typed
 * as VNC's keysyms are, so that clients with different layouts share one
 * session; the keys that mean the same everywhere (modifiers, function
 * keys, arrows, keypad, Return, Space...) pass as they are, so shortcuts
 * and Alt+drag work. The client's AltGr (level 3 and 5 shifts) only
 * chooses its keysyms and never reaches the session. Pure xkbcommon, no
 * wlroots, so unit tests link it directly.
 */

#include <stdbool.h>
#include <stdint.h>
#include <xkbcommon/xkbcommon.h>

struct client_keymap;

enum client_key_kind {
	CLIENT_KEY_NONE,    /* nothing for the session */
	CLIENT_KEY_KEYCODE, /* this evdev keycode, as it is */
	CLIENT_KEY_KEYSYM,  /* this keysym, typed with the keys it needs there */
};

struct client_key {
	enum client_key_kind kind;
	uint32_t keycode;
	xkb_keysym_t sym;
	/*
	 * A keysym the client's AltGr chose: no modifier the client holds
	 * applies to it, since Windows sends AltGr as Ctrl+Alt.
	 */
	bool alone;
};

/* The xkb layout and variant ("" or NULL: the default); NULL when they do not compile. */
struct client_keymap *client_keymap_create(struct xkb_context *context, const char *layout,
	const char *variant);
/* NULL is a no-op. */
void client_keymap_destroy(struct client_keymap *keymap);

/*
 * What the session gets for the client pressing or releasing the evdev
 * keycode. A release gives what the press gave, whatever the modifiers
 * did in between; a repeated press gives it again.
 */
struct client_key client_keymap_key(struct client_keymap *keymap, uint32_t evdev_keycode,
	bool pressed);

/* The client holds nothing any more (RDP's Synchronize): modifiers are up. */
void client_keymap_reset(struct client_keymap *keymap);

#endif
