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
