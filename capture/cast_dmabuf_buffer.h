/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_CAST_DMABUF_BUFFER_H
#define ORIEL_CAPTURE_CAST_DMABUF_BUFFER_H

/*
 * A gbm buffer object as a wlr_buffer exposing its dma-buf, so that the
 * renderer draws a cast's frames straight into PipeWire's buffers.
 */

struct gbm_bo;
struct wlr_buffer;

/*
 * Takes bo (destroyed with the buffer, or here on failure). Its planes'
 * fds, offsets and strides are what wlr_buffer_get_dmabuf gives; they
 * stay valid until wlr_buffer_drop.
 */
struct wlr_buffer *cast_dmabuf_buffer_create(struct gbm_bo *bo);

#endif
