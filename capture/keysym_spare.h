/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_KEYSYM_SPARE_H
#define ORIEL_CAPTURE_KEYSYM_SPARE_H

/*
 * Keysyms that no key of the active keymap produces (a character typed
 * on a viewer with another layout: é or € on a us keymap) are delivered
 * by binding them to spare keycodes: keys the keymap names but gives no
 * symbols. This builds such a keymap from the active one. Pure
 * xkbcommon, no wlroots, so unit tests link it directly.
 */

#include <stddef.h>
#include <xkbcommon/xkbcommon.h>

struct keysym_spare_binding {
	xkb_keycode_t keycode; /* xkb keycode (evdev + 8) */
	xkb_keysym_t sym;
};

/*
 * Fills out with up to max spare keycodes of keymap, highest first: keys
 * X11 clients can receive (8..255) with a name and no symbols in any
 * layout. Returns how many.
 */
size_t keysym_spare_find(struct xkb_keymap *keymap, xkb_keycode_t *out, size_t max);

/*
 * A new keymap: base with each binding's keycode giving its keysym at the
 * first level of every layout. NULL on failure (a keycode without a name,
 * a compile error).
 */
struct xkb_keymap *keysym_spare_keymap(struct xkb_keymap *base,
	const struct keysym_spare_binding *bindings, size_t n);

#endif
