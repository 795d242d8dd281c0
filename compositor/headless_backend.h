#ifndef ORIEL_HEADLESS_BACKEND_H
#define ORIEL_HEADLESS_BACKEND_H

/*
 * Headless outputs that cost nothing when idle. wlroots 0.15's headless
 * backend re-arms a frame timer at the refresh rate forever; ours sends a
 * frame event only after a commit that presented a buffer, like a display
 * that vsyncs only while something is drawn.
 */

#include <stdbool.h>
#include <wayland-server-core.h>

struct wlr_backend;
struct wlr_output;

struct wlr_backend *headless_backend_create(struct wl_display *display);
bool headless_backend_is(struct wlr_backend *backend);
/* refresh_mhz 0 means 60 Hz. Returns NULL on failure. */
struct wlr_output *headless_backend_add_output(struct wlr_backend *backend,
	int width, int height, int refresh_mhz);
bool headless_output_is(struct wlr_output *output);

#endif
