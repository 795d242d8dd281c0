/* SPDX-License-Identifier: MIT */
#include <linux/input-event-codes.h>
#include <freerdp/input.h>
#include <wlr/util/log.h>
#include "capture/rdp/rdp_private.h"
#include "capture/rdp/rdp_scancode.h"
#include "capture/virtual_input.h"
#include "compositor/server.h"

/*
 * Client input → capture/virtual_input: scancodes become evdev keycodes,
 * which the session's keymap turns into keys as a real keyboard's would;
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

static BOOL handle_keyboard(rdpInput *input, UINT16 flags, UINT16 code) {
	struct rdp_peer *peer = peer_of(input);
	struct virtual_input *vi = input_of(peer);
	if (!vi) {
		return TRUE;
	}
	uint32_t key = rdp_scancode_to_evdev((uint8_t)code, flags & KBD_FLAGS_EXTENDED,
		flags & KBD_FLAGS_EXTENDED1);
	if (key == 0) {
		wlr_log(WLR_DEBUG, "RDP: no key for scancode 0x%x (flags 0x%x)", code, flags);
		return TRUE;
	}
	virtual_input_keycode(vi, key, !(flags & KBD_FLAGS_RELEASE));
	peer->input_used = true;
	return TRUE;
}

static BOOL handle_unicode(rdpInput *input, UINT16 flags, UINT16 code) {
	struct rdp_peer *peer = peer_of(input);
	struct virtual_input *vi = input_of(peer);
	if (!vi || code < 0x20 || (code >= 0xD800 && code <= 0xDFFF)) {
		return TRUE;
	}
	/* Unicode keysyms: Latin-1 as itself, the rest with 0x01000000. */
	uint32_t keysym = code < 0x100 ? code : 0x01000000u | code;
	if (!virtual_input_keysym(vi, keysym, !(flags & KBD_FLAGS_RELEASE))) {
		wlr_log(WLR_DEBUG, "RDP: no key for U+%04X", code);
	}
	peer->input_used = true;
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

static BOOL handle_synchronize(rdpInput *input, UINT32 flags) {
	/* Sent when the client's window gains focus: nothing is held now. */
	struct rdp_peer *peer = peer_of(input);
	struct virtual_input *vi = input_of(peer);
	if (vi && peer->input_used) {
		virtual_input_release_all(vi);
		peer->input_used = false;
	}
	return TRUE;
}

void rdp_input_init_peer(struct rdp_peer *peer) {
	rdpInput *input = peer->client->input;
	input->KeyboardEvent = handle_keyboard;
	input->UnicodeKeyboardEvent = handle_unicode;
	input->MouseEvent = handle_mouse;
	input->ExtendedMouseEvent = handle_extended_mouse;
	input->SynchronizeEvent = handle_synchronize;
}

void rdp_input_peer_gone(struct rdp_peer *peer) {
	struct virtual_input *vi = peer->rdp->server->virtual_input;
	if (vi && peer->input_used) {
		virtual_input_release_all(vi);
	}
}
