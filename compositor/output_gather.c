/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/types/wlr_output.h>
#include "compositor/headless_backend.h"
#include "compositor/output.h"
#include "compositor/output_gather.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * A headless output presents as soon as something changed (frame_pacer.h),
 * but a change often comes in parts a fraction of a millisecond apart: an
 * X window's move reaches the window manager just before its new contents
 * reach its surface, and an app's two windows commit one after the other.
 * Drawn at the first part, the rest would wait for the next frame, which
 * the pacer may hold back by a whole period, and every viewer would get two
 * frames to encode instead of one. A display with a vblank gathers them by
 * itself; here the first frame event that finds damage waits
 * OUTPUT_GATHER_MS for the rest, and the frame is drawn after that.
 */
struct output_gather {
	struct output *output;
	struct wl_event_source *timer;
	bool waiting; /* the timer runs */
	bool gathered; /* the timer ran: the next frame event draws */
};

static int handle_timer(void *data) {
	struct output_gather *gather = data;
	gather->waiting = false;
	gather->gathered = true;
	wlr_output_schedule_frame(gather->output->wlr_output);
	return 0;
}

bool output_gather_ready(struct output_gather *gather) {
	if (!gather || gather->gathered) {
		if (gather) {
			gather->gathered = false;
		}
		return true;
	}
	if (!gather->waiting) {
		gather->waiting = true;
		wl_event_source_timer_update(gather->timer, OUTPUT_GATHER_MS);
	}
	return false;
}

struct output_gather *output_gather_create(struct output *output) {
	if (!headless_output_is(output->wlr_output)) {
		return NULL;
	}
	struct output_gather *gather = zalloc(sizeof(*gather));
	gather->output = output;
	gather->timer = wl_event_loop_add_timer(
		wl_display_get_event_loop(output->server->display), handle_timer, gather);
	if (!gather->timer) {
		free(gather);
		return NULL;
	}
	return gather;
}

void output_gather_destroy(struct output_gather *gather) {
	if (!gather) {
		return;
	}
	wl_event_source_remove(gather->timer);
	free(gather);
}
