/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_OUTPUT_H
#define ORIEL_OUTPUT_H

#include <wayland-server-core.h>
#include <wlr/util/box.h>

struct server;
struct output_release;

struct output {
	struct server *server;
	struct wlr_output *wlr_output;
	struct wlr_scene_output *scene_output;
	struct wl_list link; /* server.outputs */

	/* Layout box minus what layer-shell panels reserve. */
	struct wlr_box usable_area;
	/* Lets a quiet output's buffers go (output_release.c); may be NULL. */
	struct output_release *release;
	/* Draws a headless output's change once its parts are in (output_gather.c); may be NULL. */
	struct output_gather *gather;

	struct wl_listener frame;
	struct wl_listener mode;
	struct wl_listener destroy;
};

void output_init_server(struct server *server);
void output_finish_server(struct server *server);

struct output *output_by_name(struct server *server, const char *name);
struct output *output_at(struct server *server, double lx, double ly);
/* The output under the cursor, else the first one; NULL when there is none. */
struct output *output_focused(struct server *server);
void output_layout_box(struct output *output, struct wlr_box *box);
/* Resizes a headless output; the change reaches every client (and Xwayland). */
bool output_set_size(struct output *output, int width, int height);
/*
 * Puts the output at x,y in the layout, to stay there (outputs placed
 * automatically are lined up right of the placed ones).
 */
void output_place(struct output *output, int x, int y);
/* Schedules a frame on every output: used when something needs a frame event. */
void output_schedule_frames(struct server *server);

#endif
