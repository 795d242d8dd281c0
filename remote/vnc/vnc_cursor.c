/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "remote/vnc/vnc_private.h"
#include "compositor/headless_backend.h"
#include "compositor/output.h"

/*
 * The cursor as metadata. The headless output's cursor plane keeps the
 * cursor out of the frames; here its image becomes an rfbCursor (rich
 * colours + alpha + a 1-bit mask), which libvncserver sends through the
 * RichCursor/XCursor pseudo-encodings to viewers that ask for them and
 * blends into the update it sends to the others, at screen->cursorX/Y.
 */

/* Builds the rfbCursor of an ARGB8888 premultiplied image; NULL if hidden. */
static rfbCursorPtr make_cursor(const struct headless_cursor *hc) {
	if (!hc->visible || !hc->pixels || hc->width <= 0 || hc->height <= 0) {
		return NULL;
	}
	int w = hc->width, h = hc->height;
	int mask_stride = (w + 7) / 8;
	rfbCursorPtr c = calloc(1, sizeof(*c));
	unsigned char *rich = malloc((size_t)w * h * 4);
	unsigned char *alpha = malloc((size_t)w * h);
	unsigned char *mask = calloc((size_t)mask_stride * h, 1);
	if (!c || !rich || !alpha || !mask) {
		free(c);
		free(rich);
		free(alpha);
		free(mask);
		return NULL;
	}
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			size_t i = (size_t)y * w + x;
			uint32_t p = hc->pixels[i];
			uint32_t a = p >> 24;
			uint32_t r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
			if (a > 0 && a < 255) { /* un-premultiply: viewers expect plain colours */
				r = r * 255 / a;
				g = g * 255 / a;
				b = b * 255 / a;
				r = r > 255 ? 255 : r;
				g = g > 255 ? 255 : g;
				b = b > 255 ? 255 : b;
			} else if (a == 0) {
				r = g = b = 0;
			}
			uint32_t v = (r << 16) | (g << 8) | b; /* the server pixel format */
			memcpy(rich + i * 4, &v, 4);
			alpha[i] = (unsigned char)a;
			if (a >= 128) {
				mask[(size_t)y * mask_stride + x / 8] |= 0x80 >> (x % 8);
			}
		}
	}
	c->width = (unsigned short)w;
	c->height = (unsigned short)h;
	c->xhot = (unsigned short)(hc->hotspot_x < 0 ? 0 :
		hc->hotspot_x >= w ? w - 1 : hc->hotspot_x);
	c->yhot = (unsigned short)(hc->hotspot_y < 0 ? 0 :
		hc->hotspot_y >= h ? h - 1 : hc->hotspot_y);
	c->richSource = rich;
	c->alphaSource = alpha;
	c->alphaPreMultiplied = FALSE;
	c->mask = mask;
	/* For XCursor viewers: two colours, made from richSource on demand. */
	c->foreRed = c->foreGreen = c->foreBlue = 0xffff;
	c->backRed = c->backGreen = c->backBlue = 0;
	c->cleanup = TRUE;
	c->cleanupRichSource = TRUE;
	c->cleanupMask = TRUE;
	return c;
}

static void update_shape(struct vnc_server *vnc, const struct headless_cursor *hc) {
	rfbCursorPtr c = hc ? make_cursor(hc) : NULL;
	/* Frees the previous one (cleanup) and flags every viewer. */
	rfbSetCursor(vnc->screen, c);
}

static void update_position(struct vnc_server *vnc, struct vnc_source *source,
		const struct headless_cursor *hc) {
	int x = hc->x + source->x, y = hc->y + source->y;
	if (vnc->screen->cursorX == x && vnc->screen->cursorY == y) {
		return;
	}
	vnc->screen->cursorX = x;
	vnc->screen->cursorY = y;
	/* PointerPos viewers hear of moves, except the one that made it. */
	struct vnc_client *client;
	wl_list_for_each(client, &vnc->clients, link) {
		if (client != vnc->pointer_client) {
			client->cl->cursorWasMoved = TRUE;
		}
	}
}

/*
 * With several outputs (the layout), the cursor shown is the one of the
 * output that has it visible; an output hiding its cursor only hides the
 * viewers' cursor when it was the one shown.
 */
static void cursor_changed(struct vnc_source *source, const struct headless_cursor *hc,
		bool shape) {
	struct vnc_server *vnc = source->vnc;
	bool visible = hc && hc->visible && hc->pixels;
	if (!visible) {
		if (vnc->cursor_source == source || (shape && !vnc->cursor_source)) {
			vnc->cursor_source = NULL;
			update_shape(vnc, NULL);
		}
	} else {
		if (shape || vnc->cursor_source != source) {
			update_shape(vnc, hc);
		}
		vnc->cursor_source = source;
		update_position(vnc, source, hc);
	}
	vnc_schedule_updates(vnc);
}

static void handle_cursor_shape(struct wl_listener *listener, void *data) {
	struct vnc_source *source = wl_container_of(listener, source, cursor_changed);
	cursor_changed(source, headless_output_cursor(data), true);
}

static void handle_cursor_motion(struct wl_listener *listener, void *data) {
	struct vnc_source *source = wl_container_of(listener, source, cursor_motion);
	cursor_changed(source, headless_output_cursor(data), false);
}

void vnc_cursor_attach(struct vnc_source *source) {
	struct vnc_server *vnc = source->vnc;
	vnc_cursor_detach(source);
	source->cursor_changed.notify = handle_cursor_shape;
	source->cursor_motion.notify = handle_cursor_motion;
	if (!headless_output_add_cursor_listeners(source->output->wlr_output,
			&source->cursor_changed, &source->cursor_motion)) {
		/* Other outputs draw the cursor into their frames. */
		if (!vnc->cursor_source) {
			update_shape(vnc, NULL);
		}
		return;
	}
	source->cursor_attached = true;
	const struct headless_cursor *hc = headless_output_cursor(source->output->wlr_output);
	if (hc && hc->visible && hc->pixels) {
		update_shape(vnc, hc);
		vnc->cursor_source = source;
		update_position(vnc, source, hc);
	} else if (!vnc->cursor_source) {
		update_shape(vnc, NULL);
	}
}

void vnc_cursor_detach(struct vnc_source *source) {
	struct vnc_server *vnc = source->vnc;
	if (vnc->cursor_source == source) {
		vnc->cursor_source = NULL;
	}
	if (!source->cursor_attached) {
		return;
	}
	wl_list_remove(&source->cursor_changed.link);
	wl_list_remove(&source->cursor_motion.link);
	source->cursor_attached = false;
}
