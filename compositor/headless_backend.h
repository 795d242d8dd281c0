/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_HEADLESS_BACKEND_H
#define ORIEL_HEADLESS_BACKEND_H

/*
 * Headless outputs that cost nothing when idle. wlroots 0.15's headless
 * backend re-arms a frame timer at the refresh rate forever; ours sends a
 * frame event only after a commit that presented a buffer, like a display
 * that vsyncs only while something is drawn.
 */

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct wlr_backend;
struct wlr_output;

struct wlr_backend *headless_backend_create(struct wl_display *display);
bool headless_backend_is(struct wlr_backend *backend);
/* refresh_mhz 0 means 60 Hz. Returns NULL on failure. */
struct wlr_output *headless_backend_add_output(struct wlr_backend *backend,
	int width, int height, int refresh_mhz);
/* The same, named PREFIX-N instead of HEADLESS-N. */
struct wlr_output *headless_backend_add_named_output(struct wlr_backend *backend,
	const char *prefix, int width, int height, int refresh_mhz);
bool headless_output_is(struct wlr_output *output);

/*
 * The cursor plane of a headless output. wlroots puts the cursor there
 * (set_cursor/move_cursor) instead of drawing it into frames; sinks read
 * it here to send it as metadata.
 */
struct headless_cursor {
	uint32_t *pixels; /* ARGB8888, premultiplied, width * height; NULL when hidden */
	int width, height;
	int hotspot_x, hotspot_y;
	int x, y; /* the hotspot, output buffer coordinates */
	bool visible;
	uint32_t serial; /* changes with every new image */
};

/* NULL when output is not one of ours. */
const struct headless_cursor *headless_output_cursor(struct wlr_output *output);
/*
 * shape fires when the image or hotspot changes, motion when the position
 * does; both with the wlr_output. Remove them (wl_list_remove) before the
 * output goes away. False (and nothing added) if output is not ours.
 */
bool headless_output_add_cursor_listeners(struct wlr_output *output,
	struct wl_listener *shape, struct wl_listener *motion);

#endif
