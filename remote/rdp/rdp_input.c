/* SPDX-License-Identifier: MIT */
#include <linux/input-event-codes.h>
#include <freerdp/input.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>
#include "remote/rdp/rdp_private.h"
#include "remote/rdp/rdp_scancode.h"
#include "remote/client_keymap.h"
#include "remote/windows_layout.h"
#include "capture/virtual_input.h"
#include "compositor/options.h"
#include "compositor/server.h"

/*
 * Client input → capture/virtual_input: scancodes become evdev keycodes,
 * read through the layout the client announced (client_keymap.c: the
 * keys that type characters go as keysyms, the others as keys) or, with
 * --rdp-keyboard session, through the session's keymap as a real
 * keyboard's would (AltGr and dead keys included); Unicode characters
 * are typed as keysyms, on spare keycodes when the keymap lacks them; the lock keys follow the
 * client's on Synchronize;
 * keys a client sends before its logon was checked (it may type the
 * moment it is connected, and FreeRDP may have finished connecting it on
 * the guest's thread) wait for it, and go in order once it is a session;
 * absolute pointer motion on the served output, the three buttons, the
 * two extended ones, and both wheels. A client that goes away releases
 * everything it held.
 */

static struct rdp_peer *peer_of(rdpInput *input) {
	return input->context->peer->ContextExtra;
}

/* The input of a logged-on, writing client goes here; else NULL. */
static struct virtual_input *input_of(struct rdp_peer *peer) {
	if (peer->state != RDP_PEER_SESSION || peer->view_only || peer->closing) {
		return NULL;
	}
	return peer->rdp->server->virtual_input;
}

/*
 * The client's own layout, made on its first key (the announced one is
 * known since its connection); NULL where the session's keymap reads its
 * keys: --rdp-keyboard session, or a layout with no xkb counterpart.
 */
static struct client_keymap *keymap_of(struct rdp_peer *peer) {
	if (peer->keymap_chosen) {
		return peer->keymap;
	}
	peer->keymap_chosen = true;
	if (peer->rdp->options->keyboard != CONFIG_RDP_KEYBOARD_CLIENT) {
		return NULL;
	}
	rdpSettings *settings = peer->client->settings;
	uint32_t klid = settings->KeyboardLayout;
	const struct windows_layout *layout = windows_layout_find(klid,
		settings->KeyboardType);
	if (!layout) {
		wlr_log(WLR_INFO, "RDP: %s announced keyboard layout 0x%08x (type %u), which "
			"oriel does not know: its keys go through the session's keymap",
			peer->host, klid, settings->KeyboardType);
		return NULL;
	}
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (context) {
		peer->keymap = client_keymap_create(context, layout->layout, layout->variant);
		xkb_context_unref(context);
	}
	if (!peer->keymap) {
		wlr_log(WLR_ERROR, "RDP: cannot compile the keymap %s(%s) for %s: its keys go "
			"through the session's keymap", layout->layout, layout->variant, peer->host);
		return NULL;
	}
	wlr_log(WLR_INFO, "RDP: %s types with keyboard layout 0x%08x, %s%s%s%s", peer->host,
		klid, layout->layout, layout->variant[0] ? "(" : "", layout->variant,
		layout->variant[0] ? ")" : "");
	return peer->keymap;
}

/*
 * A guest's key waits for its logon; false when the peer is a session
 * (or going), and the key is for now. Beyond RDP_HELD_KEYS_MAX keys,
 * later ones are dropped: nobody types that much before a logon.
 */
static bool hold(struct rdp_peer *peer, enum rdp_held_key_kind kind, UINT16 flags,
		UINT16 code) {
	if (peer->state == RDP_PEER_SESSION || peer->closing) {
		return false;
	}
	if (peer->n_held_keys == RDP_HELD_KEYS_MAX) {
		return true;
	}
	peer->held_keys[peer->n_held_keys++] = (struct rdp_held_key){
		.kind = (uint8_t)kind, .flags = flags, .code = code };
	return true;
}

static void keyboard(struct rdp_peer *peer, UINT16 flags, UINT16 code) {
	struct virtual_input *vi = input_of(peer);
	if (!vi) {
		return;
	}
	/* Pause comes as E1 1D and a 45 that is not Num Lock. */
	bool pause_tail = peer->pause_prefix && code == 0x45 &&
		!(flags & (KBD_FLAGS_EXTENDED | KBD_FLAGS_EXTENDED1));
	peer->pause_prefix = (flags & KBD_FLAGS_EXTENDED1) && code == 0x1D;
	if (pause_tail) {
		return;
	}
	uint32_t key = rdp_scancode_to_evdev((uint8_t)code, flags & KBD_FLAGS_EXTENDED,
		flags & KBD_FLAGS_EXTENDED1);
	if (key == 0) {
		wlr_log(WLR_DEBUG, "RDP: no key for scancode 0x%x (flags 0x%x)", code, flags);
		return;
	}
	bool pressed = !(flags & KBD_FLAGS_RELEASE);
	struct client_keymap *keymap = keymap_of(peer);
	struct client_key typed = { .kind = CLIENT_KEY_KEYCODE, .keycode = key };
	if (keymap) {
		typed = client_keymap_key(keymap, key, pressed);
	}
	if (typed.kind == CLIENT_KEY_KEYCODE) {
		virtual_input_keycode(vi, typed.keycode, pressed);
	} else if (typed.kind == CLIENT_KEY_KEYSYM) {
		bool ok = typed.alone ? virtual_input_keysym_alone(vi, typed.sym, pressed) :
			virtual_input_keysym(vi, typed.sym, pressed);
		if (!ok && pressed) {
			wlr_log(WLR_DEBUG, "RDP: no key for keysym 0x%x", typed.sym);
		}
	}
	peer->input_used = true;
}

static BOOL handle_keyboard(rdpInput *input, UINT16 flags, UINT16 code) {
	struct rdp_peer *peer = peer_of(input);
	if (!hold(peer, RDP_HELD_SCANCODE, flags, code)) {
		keyboard(peer, flags, code);
	}
	return TRUE;
}

/* The keysym typing a character sent as Unicode; NoSymbol for none. */
static xkb_keysym_t unicode_keysym(uint32_t code) {
	switch (code) {
	case '\b': return XKB_KEY_BackSpace;
	case '\t': return XKB_KEY_Tab;
	case '\n':
	case '\r': return XKB_KEY_Return;
	case 0x1B: return XKB_KEY_Escape;
	case 0x7F: return XKB_KEY_Delete;
	}
	if (code >= 0x01 && code <= 0x1A) {
		return XKB_KEY_a + code - 1; /* Ctrl+letter: the client holds Ctrl */
	}
	if (code < 0x20 || (code >= 0x80 && code < 0xA0)) {
		return XKB_KEY_NoSymbol;
	}
	/* Legacy keysyms where the keymaps use them (EuroSign for U+20AC). */
	return xkb_utf32_to_keysym(code);
}

static void unicode(struct rdp_peer *peer, UINT16 flags, UINT16 code) {
	struct virtual_input *vi = input_of(peer);
	if (!vi) {
		return;
	}
	/* Characters beyond the BMP come as two events, one per half. */
	uint32_t character = code;
	if (code >= 0xD800 && code <= 0xDBFF) {
		peer->high_surrogate = code;
		return;
	} else if (code >= 0xDC00 && code <= 0xDFFF) {
		if (!peer->high_surrogate) {
			return;
		}
		character = 0x10000 + ((uint32_t)(peer->high_surrogate - 0xD800) << 10) +
			(code - 0xDC00u);
	} else {
		peer->high_surrogate = 0;
	}
	xkb_keysym_t keysym = unicode_keysym(character);
	if (keysym == XKB_KEY_NoSymbol) {
		return;
	}
	bool pressed = !(flags & KBD_FLAGS_RELEASE);
	if (!virtual_input_character(vi, keysym, pressed) && pressed) {
		wlr_log(WLR_DEBUG, "RDP: no key for U+%04X", character);
	}
	peer->input_used = true;
}

static BOOL handle_unicode(rdpInput *input, UINT16 flags, UINT16 code) {
	struct rdp_peer *peer = peer_of(input);
	if (!hold(peer, RDP_HELD_UNICODE, flags, code)) {
		unicode(peer, flags, code);
	}
	return TRUE;
}

static bool move(struct rdp_peer *peer, struct virtual_input *vi, UINT16 x, UINT16 y) {
	double lx, ly;
	if (!rdp_desktop_to_layout(peer->rdp, x, y, &lx, &ly)) {
		return false;
	}
	/* The client's own pointer is there already: no position back to it. */
	peer->rdp->pointer_peer = peer;
	bool moved = virtual_input_pointer_motion_absolute(vi, lx, ly);
	peer->rdp->pointer_peer = NULL;
	return moved;
}

/* A 9-bit two's complement count of 1/120 notches; positive is up (or right). */
static double wheel_notches(UINT16 flags) {
	int value = flags & 0xFF;
	if (flags & PTR_FLAGS_WHEEL_NEGATIVE) {
		value -= 0x100;
	}
	return value / 120.0;
}

static BOOL handle_mouse(rdpInput *input, UINT16 flags, UINT16 x, UINT16 y) {
	struct rdp_peer *peer = peer_of(input);
	struct virtual_input *vi = input_of(peer);
	if (!vi) {
		return TRUE;
	}
	if (flags & PTR_FLAGS_WHEEL) {
		virtual_input_pointer_axis(vi, 0, -wheel_notches(flags));
		return TRUE;
	}
	if (flags & PTR_FLAGS_HWHEEL) {
		virtual_input_pointer_axis(vi, 1, wheel_notches(flags));
		return TRUE;
	}
	move(peer, vi, x, y);
	uint32_t button = 0;
	if (flags & PTR_FLAGS_BUTTON1) {
		button = BTN_LEFT;
	} else if (flags & PTR_FLAGS_BUTTON2) {
		button = BTN_RIGHT;
	} else if (flags & PTR_FLAGS_BUTTON3) {
		button = BTN_MIDDLE;
	}
	if (button) {
		virtual_input_pointer_button(vi, button, flags & PTR_FLAGS_DOWN);
		peer->input_used = true;
	}
	return TRUE;
}

static BOOL handle_extended_mouse(rdpInput *input, UINT16 flags, UINT16 x, UINT16 y) {
	struct rdp_peer *peer = peer_of(input);
	struct virtual_input *vi = input_of(peer);
	if (!vi) {
		return TRUE;
	}
	move(peer, vi, x, y);
	uint32_t button = 0;
	if (flags & PTR_XFLAGS_BUTTON1) {
		button = BTN_SIDE;
	} else if (flags & PTR_XFLAGS_BUTTON2) {
		button = BTN_EXTRA;
	}
	if (button) {
		virtual_input_pointer_button(vi, button, flags & PTR_XFLAGS_DOWN);
		peer->input_used = true;
	}
	return TRUE;
}

static void synchronize(struct rdp_peer *peer, UINT32 flags) {
	/*
	 * Sent when the client's window gains focus: nothing is held now, and
	 * the lock keys are as the client has them.
	 */
	struct virtual_input *vi = input_of(peer);
	if (!vi) {
		return;
	}
	if (peer->input_used) {
		virtual_input_release_all(vi);
		peer->input_used = false;
	}
	peer->pause_prefix = false;
	peer->high_surrogate = 0;
	if (peer->keymap) {
		client_keymap_reset(peer->keymap);
	}
	virtual_input_sync_locks(vi, flags & KBD_SYNC_CAPS_LOCK, flags & KBD_SYNC_NUM_LOCK,
		flags & KBD_SYNC_SCROLL_LOCK);
}

static BOOL handle_synchronize(rdpInput *input, UINT32 flags) {
	struct rdp_peer *peer = peer_of(input);
	/* The lock flags fit in 16 bits (KBD_SYNC_*). */
	if (!hold(peer, RDP_HELD_SYNC, (UINT16)flags, 0)) {
		synchronize(peer, flags);
	}
	return TRUE;
}

void rdp_input_init_peer(struct rdp_peer *peer) {
	/* Announced in the input capabilities: clients send these only then. */
	rdpSettings *settings = peer->client->settings;
	settings->UnicodeInput = TRUE;
	settings->HasHorizontalWheel = TRUE;
	settings->HasExtendedMouseEvent = TRUE;
	rdpInput *input = peer->client->input;
	input->KeyboardEvent = handle_keyboard;
	input->UnicodeKeyboardEvent = handle_unicode;
	input->MouseEvent = handle_mouse;
	input->ExtendedMouseEvent = handle_extended_mouse;
	input->SynchronizeEvent = handle_synchronize;
}

void rdp_input_session_started(struct rdp_peer *peer) {
	int n = peer->n_held_keys;
	peer->n_held_keys = 0;
	if (n > 0) {
		wlr_log(WLR_INFO, "RDP: %s typed %d key events before its logon was checked: "
			"they go now", peer->host, n);
	}
	for (int i = 0; i < n; i++) {
		const struct rdp_held_key *key = &peer->held_keys[i];
		switch (key->kind) {
		case RDP_HELD_SCANCODE:
			keyboard(peer, key->flags, key->code);
			break;
		case RDP_HELD_UNICODE:
			unicode(peer, key->flags, key->code);
			break;
		case RDP_HELD_SYNC:
			synchronize(peer, key->flags);
			break;
		}
	}
}

void rdp_input_peer_gone(struct rdp_peer *peer) {
	struct virtual_input *vi = peer->rdp->server->virtual_input;
	if (vi && peer->input_used) {
		virtual_input_release_all(vi);
	}
	client_keymap_destroy(peer->keymap);
	peer->keymap = NULL;
}
