/* SPDX-License-Identifier: MIT */
/* Copying rendered buffers into memory: see buffer_read.h. */

#include <drm_fourcc.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/util/log.h>
#include "capture/buffer_read.h"
#include "capture/pixel_copy.h"

/* Whether format's bytes are R,G,B,x (swap to get B,G,R,x); false if unusable. */
static bool format_order(uint32_t format, bool *swap) {
	switch (format) {
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:
		*swap = false;
		return true;
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ABGR8888:
		*swap = true;
		return true;
	default:
		return false;
	}
}

/* The buffer's own memory: a row copy per rectangle, swapping if need be. */
static bool copy_from_memory(const uint8_t *src, size_t src_stride, bool swap,
		const pixman_region32_t *region, uint8_t *dst, int dst_stride) {
	int n;
	const pixman_box32_t *b = pixman_region32_rectangles(
		(pixman_region32_t *)region, &n);
	for (int i = 0; i < n; i++) {
		for (int y = b[i].y1; y < b[i].y2; y++) {
			pixel_copy_row(dst + (size_t)y * dst_stride + (size_t)b[i].x1 * 4,
				src + (size_t)y * src_stride + (size_t)b[i].x1 * 4,
				b[i].x2 - b[i].x1, swap);
		}
	}
	return true;
}

/* One rectangle read back in format, straight into its place in dst. */
static bool read_rect(struct wlr_renderer *renderer, uint32_t format,
		const pixman_box32_t *r, uint8_t *dst, int dst_stride) {
	/*
	 * The offset goes into the pointer, not dst_x/dst_y: 0.15's pixman
	 * read_pixels clips its destination to width x height.
	 */
	uint8_t *at = dst + (size_t)r->y1 * dst_stride + (size_t)r->x1 * 4;
	uint32_t w = r->x2 - r->x1, h = r->y2 - r->y1;
	uint32_t flags = 0;
	if (!wlr_renderer_read_pixels(renderer, format, &flags, dst_stride, w, h,
			r->x1, r->y1, 0, 0, at)) {
		return false;
	}
	if (flags & WLR_RENDERER_READ_PIXELS_Y_INVERT) {
		/* Renderers flip reads from their own surfaces only, not buffers. */
		wlr_log(WLR_ERROR, "Renderer read a buffer upside down");
		return false;
	}
	bool swap = false;
	format_order(format, &swap);
	if (swap) {
		for (uint32_t y = 0; y < h; y++) {
			pixel_swap_rb(at + (size_t)y * dst_stride, w);
		}
	}
	return true;
}

/* The renderer reads it back: B,G,R,A first (no swap), else R,G,B,A. */
static bool read_back(struct wlr_renderer *renderer, const pixman_region32_t *region,
		uint8_t *dst, int dst_stride, struct buffer_read_state *state) {
	static const uint32_t formats[] = { DRM_FORMAT_ARGB8888, DRM_FORMAT_ABGR8888 };
	int n;
	const pixman_box32_t *b = pixman_region32_rectangles(
		(pixman_region32_t *)region, &n);
	for (int i = 0; i < n; i++) {
		if (state->read_format) {
			if (!read_rect(renderer, state->read_format, &b[i], dst, dst_stride)) {
				return false;
			}
			continue;
		}
		for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
			if (read_rect(renderer, formats[f], &b[i], dst, dst_stride)) {
				state->read_format = formats[f];
				break;
			}
		}
		if (!state->read_format) {
			return false;
		}
	}
	return true;
}

bool buffer_read_region(struct wlr_renderer *renderer, struct wlr_buffer *buffer,
		const pixman_region32_t *region, uint8_t *dst, int dst_stride,
		struct buffer_read_state *state) {
	pixman_region32_t clip;
	pixman_region32_init(&clip);
	pixman_region32_intersect_rect(&clip, (pixman_region32_t *)region, 0, 0,
		buffer->width, buffer->height);
	void *data;
	uint32_t format;
	size_t stride;
	bool ok = false;
	if (wlr_buffer_begin_data_ptr_access(buffer, WLR_BUFFER_DATA_PTR_ACCESS_READ,
			&data, &format, &stride)) {
		bool swap;
		ok = format_order(format, &swap) &&
			copy_from_memory(data, stride, swap, &clip, dst, dst_stride);
		wlr_buffer_end_data_ptr_access(buffer);
		if (!ok) {
			wlr_log(WLR_ERROR, "Cannot copy from a buffer of format 0x%08x", format);
		}
	} else if (renderer->rendering) {
		/* Never inside an output's frame. */
	} else if (!wlr_renderer_begin_with_buffer(renderer, buffer)) {
		wlr_log(WLR_ERROR, "The renderer cannot read a buffer back");
	} else {
		ok = read_back(renderer, &clip, dst, dst_stride, state);
		wlr_renderer_end(renderer);
		if (!ok) {
			wlr_log(WLR_ERROR, "Cannot read a buffer's pixels back");
		}
	}
	pixman_region32_fini(&clip);
	return ok;
}
