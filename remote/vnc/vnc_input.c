/* SPDX-License-Identifier: MIT */
#include <linux/input-event-codes.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>
#include "capture/virtual_input.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/output.h"
#include "compositor/server.h"

/*
 * Viewer input → capture/virtual_input: absolute pointer motion on the
 * served output (or layout), buttons 1-3, wheel on 4-7, keysyms through the active
 * keymap (virtual_input keeps Shift/AltGr in step with what the viewer
 * holds). A viewer that goes away releases everything it held.
 */

static const uint32_t rfb_buttons[] = { BTN_LEFT, BTN_MIDDLE, BTN_RIGHT };

static void handle_pointer(int mask, int x, int y, rfbClientPtr cl) {
	struct vnc_client *client = cl->clientData;
	if (client) {
		vnc_client_active(client);
	}
	if (!client || cl->viewOnly) {
		return;
	}
	struct vnc_server *vnc = client->vnc;
	struct virtual_input *vi = vnc->server->virtual_input;
	double lx, ly;
	if (!vi || !vnc_framebuffer_to_layout(vnc, x, y, &lx, &ly)) {
		return;
	}
	vnc->pointer_client = client;
	virtual_input_pointer_motion_absolute(vi, lx, ly);
	vnc->pointer_client = NULL;

	int changed = mask ^ client->buttons;
	for (int i = 0; i < 3; i++) {
		if (changed & (1 << i)) {
			virtual_input_pointer_button(vi, rfb_buttons[i], mask & (1 << i));
		}
	}
	/* Wheel "buttons" 4-7 click once per press. */
	static const struct { int bit; uint32_t axis; double steps; } wheel[] = {
		{ 3, 0, -1 }, { 4, 0, 1 }, { 5, 1, -1 }, { 6, 1, 1 },
	};
	for (size_t i = 0; i < sizeof(wheel) / sizeof(wheel[0]); i++) {
		int bit = 1 << wheel[i].bit;
		if ((changed & bit) && (mask & bit)) {
			virtual_input_pointer_axis(vi, wheel[i].axis, wheel[i].steps);
		}
	}
	client->buttons = mask & 0x7;
}

static void handle_key(rfbBool down, rfbKeySym keysym, rfbClientPtr cl) {
	struct vnc_client *client = cl->clientData;
	if (client) {
		vnc_client_active(client);
	}
	if (!client || cl->viewOnly) {
		return;
	}
	struct virtual_input *vi = client->vnc->server->virtual_input;
	if (!vi) {
		return;
	}
	if (!virtual_input_keysym(vi, keysym, down) && down) {
		wlr_log(WLR_DEBUG, "VNC: no key in the keymap for keysym 0x%x", keysym);
	}
	client->keys_pressed = true;
}

void vnc_input_init(struct vnc_server *vnc) {
	vnc->screen->ptrAddEvent = handle_pointer;
	vnc->screen->kbdAddEvent = handle_key;
}

void vnc_input_client_gone(struct vnc_client *client) {
	struct virtual_input *vi = client->vnc->server->virtual_input;
	if (vi && (client->buttons || client->keys_pressed)) {
		virtual_input_release_all(vi);
	}
}
