/* SPDX-License-Identifier: MIT */
/* The buffer ring of PipeWire casts: see pipewire_cast_private.h. */

#include <drm_fourcc.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/buffer/meta.h>
#include <wlr/render/pixman.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "capture/cast_dmabuf_buffer.h"
#include "capture/cast_gbm.h"
#include "capture/pipewire/pipewire_cast_private.h"
#include "compositor/pixel_buffer.h"
#include "compositor/server.h"
#include "common/util.h"

void cast_buffer_free(struct cast_buffer *buffer) {
	wlr_buffer_drop(buffer->target); /* before the memory it draws into */
	if (buffer->data && buffer->data != MAP_FAILED) {
		munmap(buffer->data, buffer->size);
	}
	if (buffer->fd >= 0) {
		close(buffer->fd);
	}
	damage_slot_remove(&buffer->slot);
	wl_list_remove(&buffer->link);
	free(buffer);
}

/* The first frame into new buffers: see cast_handle_add_buffer. */
static void cast_buffers_changed(struct pipewire_cast *cast) {
	/*
	 * A frame queued right away can reach a consumer whose port does not
	 * use the new buffers yet, and be lost: the next one comes a frame
	 * later (output sources: at the next output commit).
	 */
	if (cast->kind == CAST_SOURCE_OUTPUT) {
		cast_request_full(cast);
	} else {
		cast_arm_retry(cast, cast->interval_ns);
	}
	if (cast->renegotiated) {
		cast->refreshes = CAST_REFRESHES;
		wl_event_source_timer_update(cast->refresh_timer, CAST_REFRESH_MS);
	}
}

/* A buffer of the ring, at the cast's size, missing everything so far. */
static struct cast_buffer *cast_buffer_new(struct pipewire_cast *cast,
		struct pw_buffer *pwb) {
	struct cast_buffer *buffer = zalloc(sizeof(*buffer));
	buffer->fd = -1;
	buffer->pw_buffer = pwb;
	buffer->width = cast->width;
	buffer->height = cast->height;
	buffer->stride = cast->stride;
	damage_slot_add(&cast->damage, &buffer->slot, cast->width, cast->height);
	wl_list_insert(&cast->buffers, &buffer->link);
	return buffer;
}

/* A gbm buffer the renderer draws into, its planes handed to PipeWire. */
static void add_dmabuf_buffer(struct pipewire_cast *cast, struct pw_buffer *pwb) {
	struct spa_buffer *sb = pwb->buffer;
	if (!(sb->datas[0].type & (1u << SPA_DATA_DmaBuf)) ||
			sb->n_datas < (uint32_t)cast->planes) {
		wlr_log(WLR_ERROR, "pipewire: the consumer wants no dma-buf buffers");
		pw_stream_set_error(cast->stream, -ENOTSUP, "dma-buf buffers expected");
		return;
	}
	struct gbm_bo *bo = cast_gbm_bo_create_fixated(cast->gbm,
		cast_format_drm(cast->format), cast->width, cast->height, cast->modifier);
	struct wlr_buffer *target = bo ? cast_dmabuf_buffer_create(bo) : NULL;
	struct wlr_dmabuf_attributes attribs;
	if (!target || !wlr_buffer_get_dmabuf(target, &attribs) ||
			attribs.n_planes != cast->planes) {
		wlr_log(WLR_ERROR, "pipewire: cannot allocate a %dx%d dma-buf with modifier "
			"0x%016" PRIx64, cast->width, cast->height, cast->modifier);
		wlr_buffer_drop(target);
		pw_stream_set_error(cast->stream, -ENOMEM, "cannot allocate buffers");
		return;
	}
	struct cast_buffer *buffer = cast_buffer_new(cast, pwb);
	buffer->target = target;
	buffer->dmabuf = true;
	buffer->planes = attribs.n_planes;
	for (int i = 0; i < attribs.n_planes; i++) {
		struct spa_data *d = &sb->datas[i];
		buffer->offsets[i] = attribs.offset[i];
		buffer->strides[i] = attribs.stride[i];
		d->type = SPA_DATA_DmaBuf;
		d->flags = SPA_DATA_FLAG_READABLE;
		d->fd = attribs.fd[i]; /* the buffer's own: closed with it */
		d->mapoffset = 0;
		d->maxsize = attribs.stride[i] * (uint32_t)cast->height;
		d->data = NULL;
	}
	pwb->user_data = buffer;
	cast_buffers_changed(cast);
}

void cast_handle_add_buffer(void *data, struct pw_buffer *pwb) {
	struct pipewire_cast *cast = data;
	if (cast->dmabuf) {
		add_dmabuf_buffer(cast, pwb);
		return;
	}
	struct spa_data *d = &pwb->buffer->datas[0];
	if (!(d->type & (1u << SPA_DATA_MemFd))) {
		wlr_log(WLR_ERROR, "pipewire: the consumer wants no memfd buffers");
		pw_stream_set_error(cast->stream, -ENOTSUP, "memfd buffers only");
		return;
	}
	struct cast_buffer *buffer = cast_buffer_new(cast, pwb);
	buffer->size = (size_t)cast->stride * cast->height;
	buffer->fd = memfd_create("oriel-cast", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (buffer->fd < 0 || ftruncate(buffer->fd, (off_t)buffer->size) < 0) {
		goto error;
	}
	fcntl(buffer->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	buffer->data = mmap(NULL, buffer->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		buffer->fd, 0);
	if (buffer->data == MAP_FAILED) {
		buffer->data = NULL;
		goto error;
	}
	d->type = SPA_DATA_MemFd;
	d->flags = SPA_DATA_FLAG_READABLE;
	d->fd = buffer->fd;
	d->mapoffset = 0;
	d->maxsize = (uint32_t)buffer->size;
	d->data = buffer->data;
	pwb->user_data = buffer;
	/*
	 * The renderer draws into it as into a dma-buf (pipewire_cast_fill.c),
	 * as BGRx like every other source: fix_format runs after, as for
	 * copied pixels.
	 */
	if (cast->kind != CAST_SOURCE_OUTPUT && !cast_format_swaps_rb(cast->format) &&
			wlr_renderer_is_pixman(cast->server->renderer)) {
		buffer->target = pixel_buffer_create(buffer->data, cast->width, cast->height,
			(size_t)cast->stride, DRM_FORMAT_XRGB8888, NULL, NULL);
	}
	cast_buffers_changed(cast);
	return;

error:
	wlr_log(WLR_ERROR, "pipewire: cannot allocate a %zu-byte memfd buffer: %s",
		buffer->size, strerror(errno));
	cast_buffer_free(buffer);
	pw_stream_set_error(cast->stream, -ENOMEM, "cannot allocate buffers");
}

void cast_handle_remove_buffer(void *data, struct pw_buffer *pwb) {
	struct cast_buffer *buffer = pwb->user_data;
	if (!buffer) {
		return;
	}
	pwb->user_data = NULL;
	for (uint32_t i = 0; i < pwb->buffer->n_datas; i++) {
		pwb->buffer->datas[i].data = NULL;
		pwb->buffer->datas[i].fd = -1;
	}
	cast_buffer_free(buffer);
}
