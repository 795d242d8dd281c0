/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_PIXEL_COPY_H
#define ORIEL_CAPTURE_PIXEL_COPY_H

/* Copying 32-bit pixel rows between sinks' formats. Pure: no wlroots. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Copies width pixels; swap_rb exchanges red and blue (xRGB <-> xBGR). */
void pixel_copy_row(uint8_t *dst, const uint8_t *src, int width, bool swap_rb);
/* Exchanges red and blue of n pixels in place. */
void pixel_swap_rb(uint8_t *pixels, size_t n);

/*
 * Draws a premultiplied ARGB8888 image (a cursor) over 32-bit xRGB pixels
 * (dst, dst_w x dst_h, dst_stride bytes a row) with its top-left corner
 * at (x, y); whatever falls outside dst is clipped.
 */
void pixel_blend_over(uint8_t *dst, int dst_w, int dst_h, int dst_stride,
	const uint32_t *src, int src_w, int src_h, int x, int y);

#endif
