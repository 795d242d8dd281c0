/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_ICON_BUFFER_H
#define ORIEL_ICON_BUFFER_H

/* A small image in a wlr_buffer, for window icons in title bars. */

#include <stdint.h>

struct wlr_buffer;

/*
 * Copies size x size premultiplied ARGB pixels (DRM_FORMAT_ARGB8888) into
 * a new buffer; NULL on failure. The caller drops it with wlr_buffer_drop.
 */
struct wlr_buffer *icon_buffer_create(const uint32_t *pixels, int size);

#endif
