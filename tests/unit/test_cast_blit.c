/* SPDX-License-Identifier: MIT */
/*
 * The renderer half of shared casts under pixman: a buffer from the
 * server's kind of allocator (scene_render_buffer_create) blitted into a
 * cast's buffer (cast_render_into, what dma-buf casts run on a GPU) and
 * copied out on the CPU (buffer_read_region), damage only.
 */
#include <drm_fourcc.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/render/allocator.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/util/log.h>
#include "capture/buffer_read.h"
#include "capture/cast_render.h"
#include "capture/scene_render.h"
#include "compositor/pixel_buffer.h"
#include "expect.h"

enum { W = 64, H = 48, STRIDE = W * 4 };
static const uint32_t BACKGROUND = 0xff102030;

static uint32_t pattern(int x, int y) {
	return 0xff000000u | (uint32_t)(x * 3) << 16 | (uint32_t)(y * 5) << 8 |
		(uint32_t)((x ^ y) & 0xff);
}

static uint32_t pixel(const uint8_t *data, int stride, int x, int y) {
	uint32_t v;
	memcpy(&v, data + (size_t)y * stride + (size_t)x * 4, 4);
	return v;
}

static bool fill_pattern(struct wlr_buffer *buffer) {
	void *data;
	uint32_t format;
	size_t stride;
	if (!wlr_buffer_begin_data_ptr_access(buffer, WLR_BUFFER_DATA_PTR_ACCESS_WRITE,
			&data, &format, &stride)) {
		return false;
	}
	bool ok = format == DRM_FORMAT_XRGB8888 || format == DRM_FORMAT_ARGB8888;
	for (int y = 0; ok && y < H; y++) {
		for (int x = 0; x < W; x++) {
			uint32_t v = pattern(x, y);
			memcpy((uint8_t *)data + (size_t)y * stride + (size_t)x * 4, &v, 4);
		}
	}
	wlr_buffer_end_data_ptr_access(buffer);
	return ok;
}

/* Inside damage: the pattern's colour; outside: untouched (outside). */
static void check(const char *what, const uint8_t *data, int stride,
		pixman_region32_t *damage, uint32_t outside) {
	int bad = 0;
	for (int y = 0; y < H && bad < 3; y++) {
		for (int x = 0; x < W && bad < 3; x++) {
			uint32_t got = pixel(data, stride, x, y);
			bool in = pixman_region32_contains_point(damage, x, y, NULL);
			uint32_t want = in ? pattern(x, y) : outside;
			if ((got & 0xffffff) != (want & 0xffffff)) {
				EXPECT(false, "%s: pixel %d,%d (%s the damage) is %08x, not %08x",
					what, x, y, in ? "in" : "outside", got, want);
				bad++;
			}
		}
	}
}

static void fill(uint8_t *data, uint32_t v) {
	for (int i = 0; i < W * H; i++) {
		memcpy(data + (size_t)i * 4, &v, 4);
	}
}

int main(void) {
	wlr_log_init(WLR_ERROR, NULL);
	struct wl_display *display = wl_display_create();
	struct wlr_backend *backend = wlr_headless_backend_create(display);
	struct wlr_renderer *renderer = wlr_pixman_renderer_create();
	struct wlr_allocator *allocator = backend && renderer ?
		wlr_allocator_autocreate(backend, renderer) : NULL;
	if (!allocator) {
		fprintf(stderr, "no pixman renderer and allocator\n");
		return 1;
	}

	/* The shared buffer a cast source renders into: shm under pixman. */
	struct wlr_buffer *shared = scene_render_buffer_create(renderer, allocator, W, H);
	EXPECT(shared && shared->width == W && shared->height == H, "no shared buffer");
	if (!shared) {
		return 1;
	}
	EXPECT(fill_pattern(shared), "the shared buffer is not CPU memory in xRGB");

	pixman_region32_t damage;
	pixman_region32_init_rect(&damage, 5, 4, 10, 7);
	pixman_region32_union_rect(&damage, &damage, 30, 20, 8, 9);
	pixman_region32_union_rect(&damage, &damage, W - 3, H - 2, 10, 10); /* clipped */

	/* A memfd cast's buffer, as pipewire_cast_buffers.c wraps it. */
	uint8_t *memory = malloc((size_t)H * STRIDE);
	fill(memory, BACKGROUND);
	struct wlr_buffer *target = pixel_buffer_create(memory, W, H, STRIDE,
		DRM_FORMAT_XRGB8888, NULL, NULL);
	EXPECT(cast_render_into(renderer, target, shared, &damage, NULL) == 0,
		"the blit failed");
	check("blit into a memfd", memory, STRIDE, &damage, BACKGROUND);

	/* Another allocator buffer as the target, as a dma-buf is on a GPU. */
	struct wlr_buffer *other = scene_render_buffer_create(renderer, allocator, W, H);
	EXPECT(other != NULL, "no second buffer");
	if (other) {
		void *data;
		uint32_t format;
		size_t stride;
		if (wlr_buffer_begin_data_ptr_access(other, WLR_BUFFER_DATA_PTR_ACCESS_WRITE,
				&data, &format, &stride)) {
			for (int y = 0; y < H; y++) {
				for (int x = 0; x < W; x++) {
					memcpy((uint8_t *)data + (size_t)y * stride + (size_t)x * 4,
						&BACKGROUND, 4);
				}
			}
			wlr_buffer_end_data_ptr_access(other);
		}
		EXPECT(cast_render_into(renderer, other, shared, &damage, NULL) == 0,
			"the blit between allocator buffers failed");
		if (wlr_buffer_begin_data_ptr_access(other, WLR_BUFFER_DATA_PTR_ACCESS_READ,
				&data, &format, &stride)) {
			check("blit into an allocator buffer", data, (int)stride, &damage,
				BACKGROUND);
			wlr_buffer_end_data_ptr_access(other);
		}
		wlr_buffer_drop(other);
	}

	/* The CPU copy memfd casts without a target make. */
	uint8_t *copy = malloc((size_t)H * STRIDE);
	fill(copy, 0);
	struct buffer_read_state state = {0};
	EXPECT(buffer_read_region(renderer, shared, &damage, copy, STRIDE, &state),
		"the copy failed");
	check("copy", copy, STRIDE, &damage, 0);

	/* The cursor over the damage only: its top row is outside. */
	uint32_t cursor_pixels[4 * 4];
	for (int i = 0; i < 16; i++) {
		cursor_pixels[i] = 0xffffffff;
	}
	struct cast_render_cursor cursor = {
		.pixels = cursor_pixels, .width = 4, .height = 4, .x = 31, .y = 19,
	};
	EXPECT(cast_render_into(renderer, target, NULL, &damage, &cursor) == 0,
		"the cursor failed");
	EXPECT(pixel(memory, STRIDE, 31, 19) == BACKGROUND, "cursor outside the damage: %08x",
		pixel(memory, STRIDE, 31, 19));
	EXPECT((pixel(memory, STRIDE, 32, 20) & 0xffffff) == 0xffffff, "no cursor: %08x",
		pixel(memory, STRIDE, 32, 20));
	EXPECT((pixel(memory, STRIDE, 35, 20) & 0xffffff) == (pattern(35, 20) & 0xffffff),
		"cursor too wide: %08x", pixel(memory, STRIDE, 35, 20));

	/* Never inside another render. */
	if (wlr_renderer_begin_with_buffer(renderer, shared)) {
		EXPECT(cast_render_into(renderer, target, shared, &damage, NULL) == -EBUSY,
			"drew inside another render");
		EXPECT(scene_render_buffer_create(renderer, allocator, W, H) == NULL,
			"allocated inside another render");
		wlr_renderer_end(renderer);
	}

	wlr_buffer_drop(target);
	wlr_buffer_drop(shared);
	free(memory);
	free(copy);
	pixman_region32_fini(&damage);
	wlr_allocator_destroy(allocator);
	wlr_renderer_destroy(renderer);
	wlr_backend_destroy(backend);
	wl_display_destroy(display);
	return failures != 0;
}
