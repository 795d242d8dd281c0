/* SPDX-License-Identifier: MIT */
/*
 * Filling a buffer of a cast's ring with what it missed (buffer->slot.missed):
 * see pipewire_cast_private.h.
 *
 * Scene sources (windows, regions) are rendered once per change for all
 * their casts (cast_source.h). A buffer the renderer draws into (a dma-buf;
 * a memfd under pixman) gets its damage blitted from the source's shared
 * buffer by the renderer, with cast_render_into: the very code a GPU runs
 * for dma-bufs runs here for memfds, so the pipewire suite tests it. Only
 * the buffers' kind differs. Other memfds copy their damage on the CPU.
 */

#include <drm_fourcc.h>
#include <errno.h>
#include <string.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/util/log.h>
#include "capture/cast_render.h"
#include "capture/cast_source.h"
#include "capture/output_capture.h"
#include "capture/pipewire/pipewire_cast_private.h"
#include "capture/pipewire/pipewire_stream.h"
#include "capture/pixel_copy.h"
#include "compositor/headless_backend.h"
#include "compositor/server.h"

/* Converts the BGRx bytes of region in place to the negotiated format. */
static void fix_format(struct pipewire_cast *cast, uint8_t *dst,
		const pixman_region32_t *region) {
	bool swap = cast_format_swaps_rb(cast->format);
	bool alpha = cast_format_has_alpha(cast->format);
	if (!swap && !alpha) {
		return;
	}
	int n;
	const pixman_box32_t *b = pixman_region32_rectangles(
		(pixman_region32_t *)region, &n);
	for (int i = 0; i < n; i++) {
		for (int y = b[i].y1; y < b[i].y2; y++) {
			uint8_t *p = dst + (size_t)y * cast->stride + (size_t)b[i].x1 * 4;
			for (int x = b[i].x1; x < b[i].x2; x++, p += 4) {
				if (swap) {
					uint8_t t = p[0];
					p[0] = p[2];
					p[2] = t;
				}
				if (alpha) {
					p[3] = 0xff;
				}
			}
		}
	}
}

/*
 * Draws the buffer's missed damage into its target with the renderer,
 * then the cursor over it: straight from the scene when the cast is alone
 * on its source, else blitted from the source's shared buffer. 0, -ENOENT
 * when the source is gone or not the cast's size, or another error.
 */
static int draw_scene_into_target(struct pipewire_cast *cast, struct cast_buffer *buffer,
		const struct cast_render_cursor *cursor) {
	struct wlr_renderer *renderer = cast->server->renderer;
	if (!cast_source_shared(cast->source)) {
		int r = cast_source_draw(cast->source, buffer->target, &buffer->slot.missed);
		if (r == 0 && cursor) {
			r = cast_render_into(renderer, buffer->target, NULL, &buffer->slot.missed, cursor);
		}
		return r;
	}
	struct wlr_buffer *shared =
		cast_source_render(cast->source, cast->width, cast->height);
	if (!shared) {
		return -ENOENT;
	}
	return cast_render_into(renderer, buffer->target, shared, &buffer->slot.missed, cursor);
}

static bool fill_from_scene(struct pipewire_cast *cast, struct cast_buffer *buffer,
		const struct cast_render_cursor *cursor) {
	if (buffer->target) {
		int r = draw_scene_into_target(cast, buffer, cursor);
		if (r == 0 || r == -ENOENT) {
			return r == 0;
		}
		wlr_log(WLR_ERROR, "pipewire: cast node %u: cannot draw into its buffers: %s",
			cast->node_id, strerror(-r));
		if (buffer->dmabuf) {
			return false;
		}
		/* A memfd: copied on the CPU from now on. */
		wlr_buffer_drop(buffer->target);
		buffer->target = NULL;
	}
	return cast_source_render(cast->source, cast->width, cast->height) &&
		cast_source_read(cast->source, &buffer->slot.missed, buffer->data, cast->stride);
}

static bool fill_from_output(struct pipewire_cast *cast, struct cast_buffer *buffer,
		const struct cast_render_cursor *cursor) {
	if (buffer->dmabuf) {
		int r = cast_render_into(cast->server->renderer, buffer->target, cast->latest,
			&buffer->slot.missed, cursor);
		if (r < 0) {
			wlr_log(WLR_ERROR, "pipewire: cast node %u: cannot draw into a dma-buf: %s",
				cast->node_id, strerror(-r));
		}
		return r == 0;
	}
	struct output_capture_frame frame = {
		.buffer = cast->latest,
		.damage = &buffer->slot.missed,
		.width = cast->latest_width,
		.height = cast->latest_height,
	};
	return output_capture_frame_copy(cast->capture, &frame, &buffer->slot.missed,
		buffer->data, cast->stride, cast->width, cast->height, 0, 0, false);
}

bool cast_fill_buffer(struct pipewire_cast *cast, struct cast_buffer *buffer,
		const struct headless_cursor *embedded) {
	struct cast_render_cursor cursor = {0};
	if (embedded && embedded->pixels && cast->cursor_box.width > 0) {
		cursor = (struct cast_render_cursor){
			.pixels = embedded->pixels,
			.width = embedded->width, .height = embedded->height,
			.x = cast->cursor_box.x, .y = cast->cursor_box.y,
		};
	}
	/* A buffer the renderer draws into gets the cursor from it too. */
	bool ok = cast->kind == CAST_SOURCE_OUTPUT ?
		fill_from_output(cast, buffer, cursor.pixels ? &cursor : NULL) :
		fill_from_scene(cast, buffer, cursor.pixels ? &cursor : NULL);
	if (!ok || buffer->dmabuf) {
		return ok;
	}
	/* Memfds of output casts have no target, nor those whose target failed. */
	if (cursor.pixels && !buffer->target) {
		/* The pixels are still BGRx: fix_format converts the cursor too. */
		pixel_blend_over(buffer->data, cast->width, cast->height, cast->stride,
			cursor.pixels, cursor.width, cursor.height, cursor.x, cursor.y);
	}
	fix_format(cast, buffer->data, &buffer->slot.missed);
	return true;
}
