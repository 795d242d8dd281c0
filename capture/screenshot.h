/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_SCREENSHOT_H
#define ORIEL_CAPTURE_SCREENSHOT_H

/*
 * Screenshots as PNG (8-bit RGB), written to fd: a file, pipe or socket
 * from a peer. fd stays open and owned by the caller. Each returns 0 or a
 * negative errno, and on success the image size when width/height are not
 * NULL. No cursor is drawn.
 */

#include <stdint.h>

struct output;
struct scene_render_params;
struct server;
struct view;

/*
 * What screenshot_output and screenshot_view render (thumbnail.h draws
 * the same): 0, or the negative errno those return.
 */
int screenshot_output_params(struct server *server, struct output *output,
	struct scene_render_params *params);
int screenshot_view_params(struct server *server, struct view *view,
	struct scene_render_params *params);

/* Everything the output shows, at the output's scale. */
int screenshot_output(struct server *server, struct output *output, int fd,
	uint32_t *width, uint32_t *height);

/*
 * The view's own surfaces (its subsurfaces and popups) only, never what
 * overlaps it and not the server-side decoration, clipped to the view's
 * geometry at scale 1. -ENOENT when the view shows nothing.
 */
int screenshot_view(struct server *server, struct view *view, int fd,
	uint32_t *width, uint32_t *height);

/*
 * A layout rectangle at scale 1, which may span outputs; what no output
 * covers is black. width and height must be 1..SCENE_RENDER_MAX_SIDE and
 * the area at most SCENE_RENDER_MAX_PIXELS, else -EINVAL.
 */
int screenshot_region(struct server *server, int x, int y, int width, int height,
	int fd, uint32_t *out_w, uint32_t *out_h);

#endif
