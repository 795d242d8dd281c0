#include <drm_fourcc.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_buffer.h>
#include "compositor/icon_buffer.h"
#include "compositor/util.h"

struct icon_buffer {
	struct wlr_buffer base;
	uint32_t *pixels;
};

static void buffer_destroy(struct wlr_buffer *wlr_buffer) {
	struct icon_buffer *buffer = wl_container_of(wlr_buffer, buffer, base);
	free(buffer->pixels);
	free(buffer);
}

static bool buffer_begin_data_ptr_access(struct wlr_buffer *wlr_buffer, uint32_t flags,
		void **data, uint32_t *format, size_t *stride) {
	struct icon_buffer *buffer = wl_container_of(wlr_buffer, buffer, base);
	if (flags & WLR_BUFFER_DATA_PTR_ACCESS_WRITE) {
		return false;
	}
	*data = buffer->pixels;
	*format = DRM_FORMAT_ARGB8888;
	*stride = (size_t)wlr_buffer->width * 4;
	return true;
}

static void buffer_end_data_ptr_access(struct wlr_buffer *wlr_buffer) {
}

static const struct wlr_buffer_impl buffer_impl = {
	.destroy = buffer_destroy,
	.begin_data_ptr_access = buffer_begin_data_ptr_access,
	.end_data_ptr_access = buffer_end_data_ptr_access,
};

struct wlr_buffer *icon_buffer_create(const uint32_t *pixels, int size) {
	if (!pixels || size <= 0) {
		return NULL;
	}
	size_t bytes = (size_t)size * size * sizeof(*pixels);
	struct icon_buffer *buffer = zalloc(sizeof(*buffer));
	buffer->pixels = malloc(bytes);
	if (!buffer->pixels) {
		free(buffer);
		return NULL;
	}
	memcpy(buffer->pixels, pixels, bytes);
	wlr_buffer_init(&buffer->base, &buffer_impl, size, size);
	return &buffer->base;
}
