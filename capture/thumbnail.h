/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_THUMBNAIL_H
#define ORIEL_CAPTURE_THUMBNAIL_H

/*
 * Small still pictures of an output or a window, for the permission
 * prompt: rendered once as a screenshot of it is (screenshot.h), then
 * scaled down on the CPU by pixman with a box-filtered convolution, so
 * that thin lines and text average out instead of breaking up.
 */

struct output;
struct server;
struct view;
struct wlr_buffer;

/*
 * What the output shows, or the view's own content, scaled down to fit
 * inside max_width x max_height with its aspect kept (thumbnail_size.h),
 * as an opaque XRGB8888 buffer. NULL when there is nothing to show or it
 * cannot be drawn.
 */
struct wlr_buffer *thumbnail_output(struct server *server, struct output *output,
	int max_width, int max_height);
struct wlr_buffer *thumbnail_view(struct server *server, struct view *view,
	int max_width, int max_height);

#endif
