/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_OUTPUT_MOVES_H
#define ORIEL_CAPTURE_OUTPUT_MOVES_H

/*
 * The window move an output capture's next frame shows, if there is
 * exactly one: sinks may then send the moved area as a copy (VNC
 * CopyRect). It is a hint only; sinks check the pixels before using it.
 */

#include <stdbool.h>
#include <wayland-server-core.h>
#include <wlr/util/box.h>

struct output;
struct view;

/* A frame moved to `to` (buffer coordinates) from `to` minus (dx, dy). */
struct output_capture_move {
	struct wlr_box to;
	int dx, dy;
};

struct output_moves {
	struct output *output;
	bool moved;   /* one view moved since the last frame */
	bool unsure;  /* several did, or the output is scaled or turned */
	const struct view *view; /* compared, never used */
	struct wlr_box from, to; /* layout coordinates */
	struct wl_listener view_moved;
};

void output_moves_init(struct output_moves *moves, struct output *output);
void output_moves_finish(struct output_moves *moves);
/* The single move since the last reset; false when there is none or several. */
bool output_moves_get(const struct output_moves *moves, struct output_capture_move *out);
/* A frame was presented: start over. */
void output_moves_reset(struct output_moves *moves);

#endif
