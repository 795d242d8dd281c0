/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_CAST_RENDER_H
#define ORIEL_CAPTURE_CAST_RENDER_H

/*
 * Renderer drawing of cast frames into the buffers of a cast's ring: a
 * source buffer (the output's committed buffer, or a scene source's shared
 * render) as a texture, and the cursor over it, only where damaged. On a
 * GPU the targets are dma-bufs and no pixels pass through the CPU; under
 * pixman they are memfds, and this is the one copy of the damage.
 */

#include <pixman.h>

struct wlr_buffer;
struct wlr_renderer;

/* A cursor image (ARGB8888, premultiplied) with its top-left at x, y. */
struct cast_render_cursor {
	const void *pixels;
	int width, height;
	int x, y;
};

/*
 * Draws damage (target coordinates) of source, a buffer of target's size,
 * into target, then cursor over it. NULL source or cursor: not drawn, so
 * cursor alone goes over what target already shows. Returns 0, -EBUSY
 * while the renderer draws something else, or -EIO.
 */
int cast_render_into(struct wlr_renderer *renderer, struct wlr_buffer *target,
	struct wlr_buffer *source, const pixman_region32_t *damage,
	const struct cast_render_cursor *cursor);

#endif
