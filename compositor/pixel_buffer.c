/* SPDX-License-Identifier: MIT */
/* A wlr_buffer over pixels in memory: see pixel_buffer.h. */

#include <stdlib.h>
#include <wlr/types/wlr_buffer.h>
#include "compositor/pixel_buffer.h"
#include "common/util.h"

struct pixel_buffer {
	struct wlr_buffer base;
	void *data;
	size_t stride;
	uint32_t drm_format;
	void (*release)(void *owner);
	void *owner;
};

static struct pixel_buffer *pixel_buffer_from(struct wlr_buffer *wlr_buffer) {
	struct pixel_buffer *buffer = wl_container_of(wlr_buffer, buffer, base);
	return buffer;
}

static void pixel_buffer_destroy(struct wlr_buffer *wlr_buffer) {
	struct pixel_buffer *buffer = pixel_buffer_from(wlr_buffer);
	if (buffer->release) {
		buffer->release(buffer->owner);
	}
	free(buffer);
}

static bool pixel_buffer_begin_access(struct wlr_buffer *wlr_buffer, uint32_t flags,
		void **data, uint32_t *format, size_t *stride) {
	struct pixel_buffer *buffer = pixel_buffer_from(wlr_buffer);
	*data = buffer->data;
	*format = buffer->drm_format;
	*stride = buffer->stride;
	return true;
}

static void pixel_buffer_end_access(struct wlr_buffer *wlr_buffer) {
}

static const struct wlr_buffer_impl pixel_buffer_impl = {
	.destroy = pixel_buffer_destroy,
	.begin_data_ptr_access = pixel_buffer_begin_access,
	.end_data_ptr_access = pixel_buffer_end_access,
};

struct wlr_buffer *pixel_buffer_create(void *data, int width, int height, size_t stride,
		uint32_t drm_format, void (*release)(void *owner), void *owner) {
	struct pixel_buffer *buffer = zalloc(sizeof(*buffer));
	wlr_buffer_init(&buffer->base, &pixel_buffer_impl, width, height);
	buffer->data = data;
	buffer->stride = stride;
	buffer->drm_format = drm_format;
	buffer->release = release;
	buffer->owner = owner;
	return &buffer->base;
}
