/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_BUFFER_READ_H
#define ORIEL_CAPTURE_BUFFER_READ_H

/*
 * Copying a region of a rendered buffer into memory as B,G,R,x bytes
 * (DRM_FORMAT_XRGB8888): straight from the buffer's memory when the CPU
 * can reach it (shm buffers, under pixman), else read back by the
 * renderer (GPU buffers). Either way one copy of the region, no more.
 */

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>

struct wlr_buffer;
struct wlr_renderer;

/*
 * The renderer's read-back format, remembered between calls so that a
 * format it cannot read is tried once only. Zero-initialise.
 */
struct buffer_read_state {
	uint32_t read_format; /* 0 until a read back worked */
};

/*
 * Copies region (buffer coordinates, clipped to its size) of buffer into dst,
 * which has buffer's size and dst_stride bytes a row; only the region's
 * pixels are written. False when it cannot (logged), and, without a try,
 * when a read back is needed while the renderer draws something else.
 */
bool buffer_read_region(struct wlr_renderer *renderer, struct wlr_buffer *buffer,
	const pixman_region32_t *region, uint8_t *dst, int dst_stride,
	struct buffer_read_state *state);

#endif
