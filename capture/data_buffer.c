/* A wlr_buffer over memory its creator owns: see data_buffer.h. */

#include <stdlib.h>
#include <wlr/types/wlr_buffer.h>
#include "capture/data_buffer.h"
#include "compositor/util.h"

struct data_buffer {
	struct wlr_buffer base;
	void *data;
	size_t stride;
	uint32_t drm_format;
};

static const struct wlr_buffer_impl data_buffer_impl;

static struct data_buffer *data_buffer_from(struct wlr_buffer *wlr_buffer) {
	struct data_buffer *buffer = wl_container_of(wlr_buffer, buffer, base);
	return buffer;
}

static void data_buffer_destroy(struct wlr_buffer *wlr_buffer) {
	free(data_buffer_from(wlr_buffer));
}

static bool data_buffer_begin_access(struct wlr_buffer *wlr_buffer, uint32_t flags,
		void **data, uint32_t *format, size_t *stride) {
	struct data_buffer *buffer = data_buffer_from(wlr_buffer);
	*data = buffer->data;
	*format = buffer->drm_format;
	*stride = buffer->stride;
	return true;
}

static void data_buffer_end_access(struct wlr_buffer *wlr_buffer) {
}

static const struct wlr_buffer_impl data_buffer_impl = {
	.destroy = data_buffer_destroy,
	.begin_data_ptr_access = data_buffer_begin_access,
	.end_data_ptr_access = data_buffer_end_access,
};

struct wlr_buffer *data_buffer_create(void *data, int width, int height, size_t stride,
		uint32_t drm_format) {
	struct data_buffer *buffer = zalloc(sizeof(*buffer));
	wlr_buffer_init(&buffer->base, &data_buffer_impl, width, height);
	buffer->data = data;
	buffer->stride = stride;
	buffer->drm_format = drm_format;
	return &buffer->base;
}
