/* SPDX-License-Identifier: MIT */
#include "xwm/ewmh_icon.h"

bool ewmh_icon_choose(const uint32_t *data, size_t len, uint32_t size,
		struct ewmh_icon *out) {
	bool found = false;
	size_t at = 0;
	while (len - at >= 2) {
		uint32_t width = data[at], height = data[at + 1];
		if (width == 0 || height == 0 || width > EWMH_ICON_MAX_SIDE ||
				height > EWMH_ICON_MAX_SIDE) {
			break;
		}
		size_t count = (size_t)width * height;
		if (len - at - 2 < count) {
			break;
		}
		struct ewmh_icon icon = {width, height, data + at + 2};
		uint32_t side = width > height ? width : height;
		uint32_t best = found ? (out->width > out->height ? out->width : out->height) : 0;
		/* At least size, as small as may be; below size, as large as may be. */
		bool better = !found || (side >= size ? best < size || side < best : side > best);
		if (better) {
			*out = icon;
			found = true;
		}
		at += 2 + count;
	}
	return found;
}

static uint32_t premultiply(uint32_t argb) {
	uint32_t a = argb >> 24;
	uint32_t r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;
	r = (r * a + 127) / 255;
	g = (g * a + 127) / 255;
	b = (b * a + 127) / 255;
	return a << 24 | r << 16 | g << 8 | b;
}

void ewmh_icon_scale(const struct ewmh_icon *icon, uint32_t size, uint32_t *dst) {
	for (size_t i = 0; i < (size_t)size * size; i++) {
		dst[i] = 0;
	}
	if (size == 0 || icon->width == 0 || icon->height == 0) {
		return;
	}
	/* The longer side fills the square. */
	uint32_t w = size, h = size;
	if (icon->width > icon->height) {
		h = (uint32_t)((uint64_t)size * icon->height / icon->width);
	} else if (icon->height > icon->width) {
		w = (uint32_t)((uint64_t)size * icon->width / icon->height);
	}
	w = w ? w : 1;
	h = h ? h : 1;
	uint32_t x0 = (size - w) / 2, y0 = (size - h) / 2;
	for (uint32_t y = 0; y < h; y++) {
		uint32_t sy = (uint32_t)((uint64_t)y * icon->height / h);
		for (uint32_t x = 0; x < w; x++) {
			uint32_t sx = (uint32_t)((uint64_t)x * icon->width / w);
			dst[(size_t)(y0 + y) * size + x0 + x] =
				premultiply(icon->pixels[(size_t)sy * icon->width + sx]);
		}
	}
}
