/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_PIXEL_BUFFER_H
#define ORIEL_PIXEL_BUFFER_H

/*
 * A wlr_buffer over 32-bit pixels in memory: text and icons drawn by oriel,
 * or a PipeWire memfd mapping that the pixman renderer draws straight into
 * (no offscreen buffer, no read-back, no copy).
 */

#include <stddef.h>
#include <stdint.h>

struct wlr_buffer;

/*
 * drm_format: DRM_FORMAT_XRGB8888 and the like, 4 bytes a pixel. When
 * release is set, the buffer owns the pixels: release(owner) runs when it
 * is destroyed. Otherwise the memory must outlive the buffer (drop it with
 * wlr_buffer_drop first).
 */
struct wlr_buffer *pixel_buffer_create(void *data, int width, int height, size_t stride,
	uint32_t drm_format, void (*release)(void *owner), void *owner);

#endif
