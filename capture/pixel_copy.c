/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "capture/pixel_copy.h"

/* Four pixels at a time (SSE2 or NEON through the compiler's vector types). */
typedef uint32_t pixel_vec __attribute__((vector_size(16)));

static uint32_t swap_pixel(uint32_t p) {
	return (p & 0xff00ff00u) | (p >> 16 & 0xffu) | (p & 0xffu) << 16;
}

/* Copies n pixels exchanging red and blue; dst may be src. */
static void swap_rb(uint8_t *dst, const uint8_t *src, size_t n) {
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		pixel_vec v;
		memcpy(&v, src + 4 * i, sizeof(v));
		v = (v & 0xff00ff00u) | (v >> 16 & 0xffu) | (v & 0xffu) << 16;
		memcpy(dst + 4 * i, &v, sizeof(v));
	}
	for (; i < n; i++) {
		uint32_t p;
		memcpy(&p, src + 4 * i, 4);
		p = swap_pixel(p);
		memcpy(dst + 4 * i, &p, 4);
	}
}

void pixel_copy_row(uint8_t *dst, const uint8_t *src, int width, bool swap) {
	if (!swap) {
		memcpy(dst, src, (size_t)width * 4);
		return;
	}
	swap_rb(dst, src, (size_t)width);
}

void pixel_swap_rb(uint8_t *pixels, size_t n) {
	swap_rb(pixels, pixels, n);
}

void pixel_blend_over(uint8_t *dst, int dst_w, int dst_h, int dst_stride,
		const uint32_t *src, int src_w, int src_h, int x, int y) {
	int x0 = x < 0 ? -x : 0, y0 = y < 0 ? -y : 0;
	int x1 = x + src_w > dst_w ? dst_w - x : src_w;
	int y1 = y + src_h > dst_h ? dst_h - y : src_h;
	for (int sy = y0; sy < y1; sy++) {
		const uint32_t *s = src + (size_t)sy * src_w;
		uint8_t *d = dst + (size_t)(y + sy) * dst_stride + (size_t)(x + x0) * 4;
		for (int sx = x0; sx < x1; sx++, d += 4) {
			uint32_t p = s[sx];
			uint32_t a = p >> 24;
			if (a == 0) {
				continue;
			}
			/* Premultiplied: out = src + dst * (1 - alpha), per channel. */
			for (int i = 0; i < 3; i++) {
				uint32_t c = (p >> (8 * i)) & 0xff;
				d[i] = (uint8_t)(c + (d[i] * (255 - a) + 127) / 255);
			}
		}
	}
}
