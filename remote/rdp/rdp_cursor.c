/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_private.h" /* FreeRDP's headers, in their order */
#include "compositor/headless_backend.h"
#include "compositor/output.h"

/*
 * The cursor as a pointer shape and position. The headless outputs'
 * cursor planes keep the cursor out of the frames; its image goes to the
 * clients as a 32-bit colour pointer (or the null system pointer when
 * hidden), and its moves as pointer positions, except to the client
 * whose input moved it.
 */

/* Pointers larger than this are cut: every client takes 96x96. */
#define MAX_SIZE 96

static bool cursor_visible(const struct headless_cursor *hc) {
	return hc && hc->visible && hc->pixels && hc->width > 0 && hc->height > 0;
}

/*
 * The cursor plane of the screen the cursor is on, and the hotspot in
 * the desktop (x, y). Every output has a plane; the cursor is on the one
 * whose plane shows it within the output, else (hidden) the primary's.
 */
static const struct headless_cursor *cursor_of(struct rdp_server *rdp, int *x, int *y) {
	const struct headless_cursor *found = NULL;
	for (int i = 0; i < rdp->n_screens; i++) {
		const struct rdp_screen *screen = rdp->screens[i];
		const struct headless_cursor *hc = headless_output_cursor(screen->output->wlr_output);
		if (!hc) {
			continue;
		}
		bool inside = hc->x >= 0 && hc->y >= 0 && hc->x < screen->width &&
			hc->y < screen->height;
		if (!found || (cursor_visible(hc) && inside)) {
			found = hc;
			*x = screen->x + hc->x;
			*y = screen->y + hc->y;
			if (cursor_visible(hc) && inside) {
				break;
			}
		}
	}
	return found;
}

static void send_hidden(struct rdp_peer *peer) {
	rdpUpdate *update = peer->client->update;
	POINTER_SYSTEM_UPDATE system = { .type = SYSPTR_NULL };
	update->pointer->PointerSystem(update->context, &system);
}

/* A 32-bit colour pointer: B,G,R,A rows bottom-up, an empty AND mask. */
static void send_shape(struct rdp_peer *peer, const struct headless_cursor *hc) {
	int w = hc->width < MAX_SIZE ? hc->width : MAX_SIZE;
	int h = hc->height < MAX_SIZE ? hc->height : MAX_SIZE;
	size_t and_stride = (size_t)((w + 15) / 16) * 2;
	BYTE *xor_mask = malloc((size_t)w * h * 4);
	BYTE *and_mask = calloc(and_stride * h, 1);
	if (!xor_mask || !and_mask) {
		free(xor_mask);
		free(and_mask);
		return;
	}
	for (int y = 0; y < h; y++) {
		BYTE *row = xor_mask + (size_t)(h - 1 - y) * w * 4;
		for (int x = 0; x < w; x++) {
			uint32_t p = hc->pixels[(size_t)y * hc->width + x];
			uint32_t a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
			if (a > 0 && a < 255) { /* un-premultiply */
				r = r * 255 / a > 255 ? 255 : r * 255 / a;
				g = g * 255 / a > 255 ? 255 : g * 255 / a;
				b = b * 255 / a > 255 ? 255 : b * 255 / a;
			}
			row[x * 4] = (BYTE)b;
			row[x * 4 + 1] = (BYTE)g;
			row[x * 4 + 2] = (BYTE)r;
			row[x * 4 + 3] = (BYTE)a;
		}
	}
	int hot_x = hc->hotspot_x < 0 ? 0 : hc->hotspot_x >= w ? w - 1 : hc->hotspot_x;
	int hot_y = hc->hotspot_y < 0 ? 0 : hc->hotspot_y >= h ? h - 1 : hc->hotspot_y;
	POINTER_NEW_UPDATE pointer = {
		.xorBpp = 32,
		.colorPtrAttr = {
			.cacheIndex = 0,
			.xPos = (UINT32)hot_x,
			.yPos = (UINT32)hot_y,
			.width = (UINT32)w,
			.height = (UINT32)h,
			.lengthAndMask = (UINT32)(and_stride * h),
			.lengthXorMask = (UINT32)(w * h * 4),
			.xorMaskData = xor_mask,
			.andMaskData = and_mask,
		},
	};
	rdpUpdate *update = peer->client->update;
	update->pointer->PointerNew(update->context, &pointer);
	free(xor_mask);
	free(and_mask);
}

static void send_position(struct rdp_peer *peer, int x, int y) {
	rdpUpdate *update = peer->client->update;
	POINTER_POSITION_UPDATE position = {
		.xPos = (UINT32)(x < 0 ? 0 : x),
		.yPos = (UINT32)(y < 0 ? 0 : y),
	};
	update->pointer->PointerPosition(update->context, &position);
}

static bool shown_to(struct rdp_peer *peer) {
	return peer->state == RDP_PEER_SESSION && peer->activated && !peer->closing;
}

void rdp_cursor_send(struct rdp_peer *peer) {
	int x = 0, y = 0;
	const struct headless_cursor *hc = cursor_of(peer->rdp, &x, &y);
	if (!shown_to(peer) || !hc) {
		return; /* no cursor plane: the cursor is in the frames */
	}
	rdp_peer_enter_freerdp(peer);
	if (cursor_visible(hc)) {
		send_shape(peer, hc);
		send_position(peer, x, y);
	} else {
		send_hidden(peer);
	}
	rdp_peer_leave_freerdp(peer);
}

static void handle_shape(struct wl_listener *listener, void *data) {
	struct rdp_screen *screen = wl_container_of(listener, screen, cursor_shape);
	struct rdp_server *rdp = screen->rdp;
	int x, y;
	if (cursor_of(rdp, &x, &y) != headless_output_cursor(screen->output->wlr_output)) {
		return; /* not the plane the cursor is on */
	}
	struct rdp_peer *peer, *tmp;
	wl_list_for_each_safe(peer, tmp, &rdp->peers, link) {
		rdp_cursor_send(peer);
	}
}

static void handle_motion(struct wl_listener *listener, void *data) {
	struct rdp_screen *screen = wl_container_of(listener, screen, cursor_motion);
	struct rdp_server *rdp = screen->rdp;
	int x, y;
	const struct headless_cursor *hc = cursor_of(rdp, &x, &y);
	/* Every output's plane moves: the position goes once. */
	if (!cursor_visible(hc) || (x == rdp->cursor_x && y == rdp->cursor_y)) {
		return;
	}
	rdp->cursor_x = x;
	rdp->cursor_y = y;
	struct rdp_peer *peer, *tmp;
	wl_list_for_each_safe(peer, tmp, &rdp->peers, link) {
		if (peer == rdp->pointer_peer || !shown_to(peer)) {
			continue;
		}
		rdp_peer_enter_freerdp(peer);
		send_position(peer, x, y);
		rdp_peer_leave_freerdp(peer);
	}
}

void rdp_cursor_attach(struct rdp_screen *screen) {
	rdp_cursor_detach(screen);
	screen->cursor_shape.notify = handle_shape;
	screen->cursor_motion.notify = handle_motion;
	screen->cursor_attached = headless_output_add_cursor_listeners(
		screen->output->wlr_output, &screen->cursor_shape, &screen->cursor_motion);
}

void rdp_cursor_detach(struct rdp_screen *screen) {
	if (!screen->cursor_attached) {
		return;
	}
	wl_list_remove(&screen->cursor_shape.link);
	wl_list_remove(&screen->cursor_motion.link);
	screen->cursor_attached = false;
}
