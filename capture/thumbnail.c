/* SPDX-License-Identifier: MIT */
/* See thumbnail.h. */
#include <drm_fourcc.h>
#include <errno.h>
#include <pixman.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/util/log.h>
#include "capture/scene_render.h"
#include "capture/screenshot.h"
#include "capture/thumbnail.h"
#include "capture/thumbnail_size.h"
#include "compositor/pixel_buffer.h"
#include "compositor/server.h"
#include "common/util.h"

static int64_t monotonic_us(void) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

/* pixels scaled down to width x height, as XRGB8888; NULL when out of memory. */
static uint32_t *scale_down(const struct scene_pixels *pixels, int width, int height) {
	uint32_t *out = calloc((size_t)width * height, sizeof(*out));
	if (!out) {
		return NULL;
	}
	/* Rendered over opaque black: the alpha bytes carry nothing. */
	pixman_image_t *src = pixman_image_create_bits_no_clear(
		pixels->drm_format == DRM_FORMAT_ABGR8888 ? PIXMAN_x8b8g8r8 : PIXMAN_x8r8g8b8,
		(int)pixels->width, (int)pixels->height, (uint32_t *)pixels->data,
		(int)pixels->stride);
	pixman_image_t *dst = pixman_image_create_bits_no_clear(PIXMAN_x8r8g8b8, width, height,
		out, width * 4);
	pixman_fixed_t *params = NULL;
	bool ok = src && dst;
	if (ok) {
		/* Destination to source: each output pixel covers sx x sy source pixels. */
		double sx = (double)pixels->width / width, sy = (double)pixels->height / height;
		pixman_transform_t transform;
		pixman_transform_init_scale(&transform, pixman_double_to_fixed(sx),
			pixman_double_to_fixed(sy));
		int n_params = 0;
		/*
		 * Box reconstruction and box sampling: each output pixel is the
		 * area-weighted mean of the source pixels it covers (what cairo's
		 * GOOD filter does when it scales down).
		 */
		params = pixman_filter_create_separable_convolution(&n_params,
			pixman_double_to_fixed(sx > 1 ? sx : 1), pixman_double_to_fixed(sy > 1 ? sy : 1),
			PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX,
			1, 1);
		ok = params && pixman_image_set_transform(src, &transform) &&
			pixman_image_set_filter(src, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, params,
				n_params);
		/* Edges average with themselves, not with black beyond them. */
		pixman_image_set_repeat(src, PIXMAN_REPEAT_PAD);
	}
	if (ok) {
		pixman_image_composite32(PIXMAN_OP_SRC, src, NULL, dst, 0, 0, 0, 0, 0, 0,
			width, height);
	}
	free(params);
	if (src) {
		pixman_image_unref(src);
	}
	if (dst) {
		pixman_image_unref(dst);
	}
	if (!ok) {
		free(out);
		return NULL;
	}
	return out;
}

static struct wlr_buffer *thumbnail_of(struct server *server,
		const struct scene_render_params *params, int max_width, int max_height) {
	int64_t start = monotonic_us();
	struct scene_pixels pixels = {0};
	int r = scene_render_to_pixels(server->renderer, server->allocator, params, &pixels);
	if (r < 0) {
		wlr_log(WLR_ERROR, "thumbnail: cannot render its source: %s", strerror(-r));
		return NULL;
	}
	int64_t rendered = monotonic_us();
	int width, height;
	struct wlr_buffer *buffer = NULL;
	if (thumbnail_size((int)pixels.width, (int)pixels.height, max_width, max_height,
			&width, &height)) {
		uint32_t *data = scale_down(&pixels, width, height);
		if (data) {
			buffer = pixel_buffer_create(data, width, height, (size_t)width * 4,
				DRM_FORMAT_XRGB8888, free, data);
		}
	}
	wlr_log(WLR_DEBUG, "thumbnail: %ux%u to %dx%d in %lld us (%lld us rendering)",
		pixels.width, pixels.height, buffer ? width : 0, buffer ? height : 0,
		(long long)(monotonic_us() - start), (long long)(rendered - start));
	scene_pixels_finish(&pixels);
	return buffer;
}

struct wlr_buffer *thumbnail_output(struct server *server, struct output *output,
		int max_width, int max_height) {
	struct scene_render_params params;
	if (screenshot_output_params(server, output, &params) < 0) {
		return NULL;
	}
	return thumbnail_of(server, &params, max_width, max_height);
}

struct wlr_buffer *thumbnail_view(struct server *server, struct view *view,
		int max_width, int max_height) {
	struct scene_render_params params;
	if (screenshot_view_params(server, view, &params) < 0) {
		return NULL;
	}
	return thumbnail_of(server, &params, max_width, max_height);
}
