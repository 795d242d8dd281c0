#include <string.h>
#include "capture/pixel_copy.h"

void pixel_copy_row(uint8_t *dst, const uint8_t *src, int width, bool swap_rb) {
	if (!swap_rb) {
		memcpy(dst, src, (size_t)width * 4);
		return;
	}
	for (int i = 0; i < width; i++) {
		dst[4 * i + 0] = src[4 * i + 2];
		dst[4 * i + 1] = src[4 * i + 1];
		dst[4 * i + 2] = src[4 * i + 0];
		dst[4 * i + 3] = src[4 * i + 3];
	}
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
