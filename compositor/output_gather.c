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
 * but some changes come in parts a fraction of a millisecond apart: an X
 * client that moves its own window (a drag icon, a menu, an app that drags
 * a window itself) reaches the window manager just before Xwayland commits
 * the window's new contents, and the app's other windows, redrawn in the
 * same breath. Drawn at the move, the contents would wait for the next
 * frame, which the pacer may hold back by a whole period, and every viewer
 * would see the window moved with its old contents and get two frames to
 * encode instead of one. A display with a vblank gathers them by itself;
 * here the frame after such a move waits OUTPUT_GATHER_MS. Only then: a
 * wait in every frame would give the CPU away at the worst moment on a
 * busy machine (measured: a 1080p animation's latency over RDP went from
 * 18 to 33 ms).
 */
struct output_gather {
	struct output *output;
	struct wl_event_source *timer;
	bool expecting; /* a change in parts has begun */
	bool waiting; /* the timer runs */
};

static int handle_timer(void *data) {
	struct output_gather *gather = data;
	gather->waiting = false;
	gather->expecting = false;
	wlr_output_schedule_frame(gather->output->wlr_output);
	return 0;
}

void output_gather_expect(struct server *server) {
	struct output *output;
	wl_list_for_each(output, &server->outputs, link) {
		if (output->gather) {
			output->gather->expecting = true;
		}
	}
}

bool output_gather_ready(struct output_gather *gather) {
	if (!gather || !gather->expecting) {
		return true;
	}
	if (!gather->waiting) {
		if (wl_event_source_timer_update(gather->timer, OUTPUT_GATHER_MS) < 0) {
			gather->expecting = false;
			return true; /* no timer: drawn now rather than never */
		}
		gather->waiting = true;
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
