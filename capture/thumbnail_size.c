/* SPDX-License-Identifier: MIT */
/* See thumbnail_size.h. */
#include "capture/thumbnail_size.h"

bool thumbnail_size(int width, int height, int max_width, int max_height,
		int *out_width, int *out_height) {
	if (width <= 0 || height <= 0 || max_width <= 0 || max_height <= 0) {
		return false;
	}
	long long w = width, h = height;
	/* Compared as products: width / height against max_width / max_height. */
	if ((long long)width * max_height > (long long)max_width * height) {
		if (w > max_width) {
			w = max_width;
			h = ((long long)height * max_width + width / 2) / width;
		}
	} else if (h > max_height) {
		h = max_height;
		w = ((long long)width * max_height + height / 2) / height;
	}
	*out_width = w < 1 ? 1 : w > max_width ? max_width : (int)w;
	*out_height = h < 1 ? 1 : h > max_height ? max_height : (int)h;
	return true;
}
