/* SPDX-License-Identifier: MIT */
#include <drm_fourcc.h>
#include <stdlib.h>
#include <string.h>
#include "compositor/icon_buffer.h"
#include "compositor/pixel_buffer.h"

struct wlr_buffer *icon_buffer_create(const uint32_t *pixels, int size) {
	if (!pixels || size <= 0) {
		return NULL;
	}
	size_t bytes = (size_t)size * size * sizeof(*pixels);
	uint32_t *copy = malloc(bytes);
	if (!copy) {
		return NULL;
	}
	memcpy(copy, pixels, bytes);
	return pixel_buffer_create(copy, size, size, (size_t)size * 4, DRM_FORMAT_ARGB8888,
		free, copy);
}
