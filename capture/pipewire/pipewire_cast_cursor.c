/* SPDX-License-Identifier: MIT */
/* Cursor modes of PipeWire casts: see pipewire_stream.h and pipewire_cast_private.h. */

#include <drm_fourcc.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/buffer/meta.h>
#include <wlr/render/pixman.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "capture/cast_source.h"
#include "capture/output_capture.h"
#include "capture/pipewire/pipewire_cast_private.h"
#include "capture/pipewire/pipewire_stream.h"
#include "compositor/headless_backend.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * The visible cursor in source coordinates (the pointer's hotspot), from
 * the headless outputs' cursor planes; NULL when it is not on the source.
 */
static const struct headless_cursor *cast_cursor(struct pipewire_cast *cast,
		int *x, int *y) {
	struct wlr_box box = {0};
	if (cast->kind != CAST_SOURCE_OUTPUT) {
		struct wlr_scene_node *root;
		if (!cast_source_box(cast->source, &box, &root)) {
			return NULL;
		}
	}
	struct output *output;
	wl_list_for_each(output, &cast->server->outputs, link) {
		if (cast->kind == CAST_SOURCE_OUTPUT && output != cast->output) {
			continue;
		}
		const struct headless_cursor *hc = headless_output_cursor(output->wlr_output);
		if (!hc || !hc->visible || !hc->pixels) {
			continue;
		}
		if (cast->kind == CAST_SOURCE_OUTPUT) {
			*x = hc->x;
			*y = hc->y;
			return hc;
		}
		struct wlr_box output_box;
		output_layout_box(output, &output_box);
		int lx = output_box.x + hc->x, ly = output_box.y + hc->y;
		if (lx < output_box.x || ly < output_box.y ||
				lx >= output_box.x + output_box.width ||
				ly >= output_box.y + output_box.height) {
			continue;
		}
		*x = lx - box.x;
		*y = ly - box.y;
		return hc;
	}
	return NULL;
}

void cast_cursor_write_meta(struct pipewire_cast *cast, struct spa_buffer *sb) {
	struct spa_meta *meta = spa_buffer_find_meta(sb, SPA_META_Cursor);
	if (!meta || meta->size < sizeof(struct spa_meta_cursor)) {
		return;
	}
	struct spa_meta_cursor *mc = meta->data;
	int x, y;
	const struct headless_cursor *hc = cast_cursor(cast, &x, &y);
	if (!hc || x < 0 || y < 0 || x >= cast->width || y >= cast->height) {
		/* id 0: no cursor on this source now. */
		mc->id = 0;
		mc->bitmap_offset = 0;
		cast->cursor_sent = false;
		return;
	}
	mc->id = 1;
	mc->flags = 0;
	mc->position.x = x;
	mc->position.y = y;
	mc->hotspot.x = hc->hotspot_x;
	mc->hotspot.y = hc->hotspot_y;
	mc->bitmap_offset = 0;
	if (cast->cursor_sent && cast->cursor_serial == hc->serial) {
		return; /* the consumer has this shape */
	}
	if (hc->width <= 0 || hc->height <= 0 || hc->width > CAST_CURSOR_MAX ||
			hc->height > CAST_CURSOR_MAX ||
			meta->size < CAST_CURSOR_META_SIZE(hc->width, hc->height)) {
		return;
	}
	mc->bitmap_offset = sizeof(*mc);
	struct spa_meta_bitmap *bitmap = SPA_PTROFF(mc, mc->bitmap_offset,
		struct spa_meta_bitmap);
	/* ARGB8888 little-endian: bytes B,G,R,A, premultiplied. */
	bitmap->format = SPA_VIDEO_FORMAT_BGRA;
	bitmap->size.width = (uint32_t)hc->width;
	bitmap->size.height = (uint32_t)hc->height;
	bitmap->stride = hc->width * 4;
	bitmap->offset = sizeof(*bitmap);
	memcpy(SPA_PTROFF(bitmap, bitmap->offset, void), hc->pixels,
		(size_t)hc->width * hc->height * 4);
	cast->cursor_serial = hc->serial;
	cast->cursor_sent = true;
}

/* EMBEDDED: the cursor image's box in source coordinates; empty when none. */
struct wlr_box cast_cursor_embedded_box(struct pipewire_cast *cast,
		const struct headless_cursor **hc_out) {
	int x, y;
	const struct headless_cursor *hc = cast_cursor(cast, &x, &y);
	*hc_out = hc;
	if (!hc || hc->width <= 0 || hc->height <= 0) {
		return (struct wlr_box){0};
	}
	return (struct wlr_box){ x - hc->hotspot_x, y - hc->hotspot_y, hc->width, hc->height };
}

static void add_damage_box(struct pipewire_cast *cast, const struct wlr_box *box) {
	if (box->width <= 0 || box->height <= 0) {
		return;
	}
	damage_ring_add_rect(&cast->damage, box->x, box->y, box->width, box->height);
	pixman_region32_intersect_rect(&cast->damage.pending, &cast->damage.pending,
		0, 0, cast->width, cast->height);
}

static void handle_cursor_change(struct wl_listener *listener, struct pipewire_cast *cast) {
	if (cast->closing) {
		return;
	}
	if (cast->cursor_mode == PIPEWIRE_CAST_CURSOR_EMBEDDED) {
		/* Where it was and where it is now: pixels to bring up to date. */
		const struct headless_cursor *hc;
		struct wlr_box now = cast_cursor_embedded_box(cast, &hc);
		add_damage_box(cast, &cast->cursor_box);
		add_damage_box(cast, &now);
		cast->cursor_box = now;
	}
	cast->cursor_dirty = true;
	/* Sent from the event loop, not from inside the cursor update. */
	cast_arm_retry(cast, 0);
}

static void handle_cursor_shape(struct wl_listener *listener, void *data) {
	struct cast_cursor_watch *watch = wl_container_of(listener, watch, shape);
	handle_cursor_change(listener, watch->cast);
}

static void handle_cursor_motion(struct wl_listener *listener, void *data) {
	struct cast_cursor_watch *watch = wl_container_of(listener, watch, motion);
	handle_cursor_change(listener, watch->cast);
}

static void cursor_watch_destroy(struct cast_cursor_watch *watch) {
	wl_list_remove(&watch->shape.link);
	wl_list_remove(&watch->motion.link);
	wl_list_remove(&watch->capture_destroy.link);
	wl_list_remove(&watch->link);
	free(watch);
}

static void handle_cursor_capture_destroy(struct wl_listener *listener, void *data) {
	struct cast_cursor_watch *watch = wl_container_of(listener, watch, capture_destroy);
	cursor_watch_destroy(watch);
}

void pipewire_cast_set_cursor_mode(struct pipewire_cast *cast, uint32_t mode) {
	cast->cursor_mode = mode;
	if (mode == PIPEWIRE_CAST_CURSOR_HIDDEN || !wl_list_empty(&cast->cursor_watches)) {
		return;
	}
	struct output *output;
	wl_list_for_each(output, &cast->server->outputs, link) {
		if (cast->kind == CAST_SOURCE_OUTPUT && output != cast->output) {
			continue;
		}
		struct cast_cursor_watch *watch = zalloc(sizeof(*watch));
		watch->cast = cast;
		watch->shape.notify = handle_cursor_shape;
		watch->motion.notify = handle_cursor_motion;
		if (!headless_output_add_cursor_listeners(output->wlr_output, &watch->shape,
				&watch->motion)) {
			free(watch);
			continue;
		}
		watch->capture = output_capture_get(output);
		watch->capture_destroy.notify = handle_cursor_capture_destroy;
		wl_signal_add(&watch->capture->events.destroy, &watch->capture_destroy);
		wl_list_insert(&cast->cursor_watches, &watch->link);
	}
	cast->cursor_dirty = true;
}


void cast_cursor_finish(struct pipewire_cast *cast) {
	struct cast_cursor_watch *watch, *tmp;
	wl_list_for_each_safe(watch, tmp, &cast->cursor_watches, link) {
		struct output_capture *capture = watch->capture;
		cursor_watch_destroy(watch);
		output_capture_put(capture);
	}
}
