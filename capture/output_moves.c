/* SPDX-License-Identifier: MIT */
#include <wlr/types/wlr_output.h>
#include "capture/output_moves.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "compositor/view.h"

static bool touches(const struct wlr_box *a, const struct wlr_box *b) {
	return a->x < b->x + b->width && b->x < a->x + a->width &&
		a->y < b->y + b->height && b->y < a->y + a->height;
}

static void handle_view_moved(struct wl_listener *listener, void *data) {
	struct output_moves *moves = wl_container_of(listener, moves, view_moved);
	struct view_moved_event *event = data;
	struct wlr_box output_box;
	output_layout_box(moves->output, &output_box);
	if (!touches(&event->from, &output_box) && !touches(&event->to, &output_box)) {
		return; /* another output's business */
	}
	struct wlr_output *wlr_output = moves->output->wlr_output;
	if (wlr_output->scale != 1.0f || wlr_output->transform != WL_OUTPUT_TRANSFORM_NORMAL) {
		moves->unsure = true; /* layout and buffer coordinates differ */
		return;
	}
	if (moves->moved && moves->view != event->view) {
		moves->unsure = true;
		return;
	}
	if (!moves->moved) {
		moves->from = event->from; /* a second move of the same view adds up */
	}
	moves->moved = true;
	moves->view = event->view;
	moves->to = event->to;
}

void output_moves_init(struct output_moves *moves, struct output *output) {
	*moves = (struct output_moves){ .output = output };
	moves->view_moved.notify = handle_view_moved;
	wl_signal_add(&output->server->events_view_moved, &moves->view_moved);
}

void output_moves_finish(struct output_moves *moves) {
	wl_list_remove(&moves->view_moved.link);
}

bool output_moves_get(const struct output_moves *moves, struct output_capture_move *out) {
	if (!moves->moved || moves->unsure || moves->from.width != moves->to.width ||
			moves->from.height != moves->to.height) {
		return false;
	}
	struct wlr_box output_box;
	output_layout_box(moves->output, &output_box);
	out->to = moves->to;
	out->to.x -= output_box.x;
	out->to.y -= output_box.y;
	out->dx = moves->to.x - moves->from.x;
	out->dy = moves->to.y - moves->from.y;
	return out->dx != 0 || out->dy != 0;
}

void output_moves_reset(struct output_moves *moves) {
	moves->moved = false;
	moves->unsure = false;
	moves->view = NULL;
}
