/* SPDX-License-Identifier: MIT */
/* A gbm buffer object as a wlr_buffer: see cast_dmabuf_buffer.h. */

#include <gbm.h>
#include <stdlib.h>
#include <unistd.h>
#include <wlr/render/dmabuf.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/util/log.h>
#include "capture/cast_dmabuf_buffer.h"
#include "common/util.h"

struct cast_dmabuf_buffer {
	struct wlr_buffer base;
	struct gbm_bo *bo;
	struct wlr_dmabuf_attributes dmabuf;
};

static const struct wlr_buffer_impl buffer_impl;

static struct cast_dmabuf_buffer *from_buffer(struct wlr_buffer *buffer) {
	struct cast_dmabuf_buffer *dmabuf_buffer = wl_container_of(buffer, dmabuf_buffer, base);
	return dmabuf_buffer;
}

static void buffer_destroy(struct wlr_buffer *wlr_buffer) {
	struct cast_dmabuf_buffer *buffer = from_buffer(wlr_buffer);
	wlr_dmabuf_attributes_finish(&buffer->dmabuf);
	gbm_bo_destroy(buffer->bo);
	free(buffer);
}

static bool buffer_get_dmabuf(struct wlr_buffer *wlr_buffer,
		struct wlr_dmabuf_attributes *attribs) {
	*attribs = from_buffer(wlr_buffer)->dmabuf;
	return true;
}

static const struct wlr_buffer_impl buffer_impl = {
	.destroy = buffer_destroy,
	.get_dmabuf = buffer_get_dmabuf,
};

struct wlr_buffer *cast_dmabuf_buffer_create(struct gbm_bo *bo) {
	int planes = gbm_bo_get_plane_count(bo);
	if (planes <= 0 || planes > WLR_DMABUF_MAX_PLANES) {
		gbm_bo_destroy(bo);
		return NULL;
	}
	struct cast_dmabuf_buffer *buffer = zalloc(sizeof(*buffer));
	buffer->bo = bo;
	struct wlr_dmabuf_attributes *d = &buffer->dmabuf;
	d->width = (int32_t)gbm_bo_get_width(bo);
	d->height = (int32_t)gbm_bo_get_height(bo);
	d->format = gbm_bo_get_format(bo);
	d->modifier = gbm_bo_get_modifier(bo);
	d->n_planes = 0;
	for (int i = 0; i < planes; i++) {
		int fd = gbm_bo_get_fd_for_plane(bo, i);
		if (fd < 0) {
			wlr_log(WLR_ERROR, "pipewire: cannot export plane %d of a cast buffer", i);
			wlr_dmabuf_attributes_finish(d);
			gbm_bo_destroy(bo);
			free(buffer);
			return NULL;
		}
		d->fd[i] = fd;
		d->offset[i] = gbm_bo_get_offset(bo, i);
		d->stride[i] = gbm_bo_get_stride_for_plane(bo, i);
		d->n_planes = i + 1;
	}
	wlr_buffer_init(&buffer->base, &buffer_impl, d->width, d->height);
	return &buffer->base;
}
