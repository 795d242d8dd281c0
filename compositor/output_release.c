/* SPDX-License-Identifier: MIT */
#include <malloc.h>
#include <time.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "compositor/headless_backend.h"
#include "compositor/output.h"
#include "compositor/output_release.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * A headless output that has shown the same frame for OUTPUT_RELEASE_MS (10 s)
 * lets its render buffers go: at 1920x1080 that is 8 MiB of shared memory
 * per output that an idle session would otherwise keep for nothing. What
 * viewers see is not in it: the VNC server keeps its own framebuffer, a
 * PipeWire cast holds the buffer it still needs (a lock, which outlives
 * the swapchain), and screenshots render on their own.
 *
 * The next frame gets a new buffer and, having no history (buffer age 0),
 * is rendered whole: about one full composite and 8 MiB of page faults,
 * once per wake-up after a quiet spell. What sinks receive is the same as
 * before: the commit's damage is what changed (the scene's), not what was
 * redrawn, so a viewer is sent only that.
 *
 * The same quiet moment gives the heap's free pages back (malloc_trim):
 * start-up leaves some, and nothing else returns them.
 *
 * wlroots 0.15 re-creates an output's swapchain when it finds none
 * (output_create_swapchain, on the next wlr_output_attach_render) and
 * exports wlr_swapchain_destroy without a public header.
 */
void wlr_swapchain_destroy(struct wlr_swapchain *swapchain);

struct output_release {
	struct output *output;
	struct wl_event_source *timer;
	bool armed;
	int64_t presented_ms; /* CLOCK_MONOTONIC of the last frame */
	struct wl_listener commit;
};


static int handle_timer(void *data) {
	struct output_release *release = data;
	struct wlr_output *wlr_output = release->output->wlr_output;
	release->armed = false;
	int64_t quiet_for = monotonic_ms() - release->presented_ms;
	if (quiet_for < OUTPUT_RELEASE_MS) {
		/* Frames came since the timer was set: it waits for the rest. */
		release->armed = true;
		wl_event_source_timer_update(release->timer, (int)(OUTPUT_RELEASE_MS - quiet_for));
		return 0;
	}
	if (wlr_output->swapchain && !wlr_output->back_buffer) {
		wlr_swapchain_destroy(wlr_output->swapchain);
		wlr_output->swapchain = NULL;
		wlr_log(WLR_DEBUG, "Output %s is quiet: its render buffers are released",
			wlr_output->name);
	}
	malloc_trim(0);
	return 0;
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct output_release *release = wl_container_of(listener, release, commit);
	struct wlr_output_event_commit *event = data;
	if (!(event->committed & WLR_OUTPUT_STATE_BUFFER)) {
		return;
	}
	/* The clock only, on every frame: no timer syscall each time. */
	release->presented_ms = monotonic_ms();
	if (!release->armed) {
		release->armed = true;
		wl_event_source_timer_update(release->timer, OUTPUT_RELEASE_MS);
	}
}

struct output_release *output_release_create(struct output *output) {
	if (!headless_output_is(output->wlr_output)) {
		return NULL;
	}
	struct output_release *release = zalloc(sizeof(*release));
	release->output = output;
	release->timer = wl_event_loop_add_timer(output->server->loop, handle_timer, release);
	release->commit.notify = handle_commit;
	wl_signal_add(&output->wlr_output->events.commit, &release->commit);
	return release;
}

void output_release_destroy(struct output_release *release) {
	if (!release) {
		return;
	}
	wl_list_remove(&release->commit.link);
	wl_event_source_remove(release->timer);
	free(release);
}
