#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <wlr/backend/interface.h>
#include <wlr/interfaces/wlr_output.h>
#include <wlr/util/log.h>
#include "compositor/headless_backend.h"
#include "compositor/util.h"

#define DEFAULT_REFRESH_MHZ 60000

struct headless_backend {
	struct wlr_backend base;
	struct wl_display *display;
	struct wl_list outputs; /* headless_output.link */
	int last_output_num;
	bool started;
	struct wl_listener display_destroy;
};

struct headless_output {
	struct wlr_output base;
	struct headless_backend *backend;
	struct wl_list link;
	struct wl_event_source *frame_timer;
	int frame_delay_ms;
};

static const struct wlr_backend_impl backend_impl;
static const struct wlr_output_impl output_impl;

static struct headless_backend *backend_from_wlr(struct wlr_backend *wlr_backend) {
	assert(headless_backend_is(wlr_backend));
	return (struct headless_backend *)wlr_backend;
}

static struct headless_output *output_from_wlr(struct wlr_output *wlr_output) {
	assert(headless_output_is(wlr_output));
	return (struct headless_output *)wlr_output;
}

static void output_set_mode(struct headless_output *output, int width, int height,
		int refresh_mhz) {
	if (refresh_mhz <= 0) {
		refresh_mhz = DEFAULT_REFRESH_MHZ;
	}
	output->frame_delay_ms = 1000000 / refresh_mhz;
	if (output->frame_delay_ms < 1) {
		output->frame_delay_ms = 1;
	}
	wlr_output_update_custom_mode(&output->base, width, height, refresh_mhz);
}

static bool output_test(struct wlr_output *wlr_output) {
	const uint32_t supported = WLR_OUTPUT_STATE_BACKEND_OPTIONAL |
		WLR_OUTPUT_STATE_BUFFER | WLR_OUTPUT_STATE_MODE |
		WLR_OUTPUT_STATE_ENABLED | WLR_OUTPUT_STATE_SCALE |
		WLR_OUTPUT_STATE_TRANSFORM;
	if (wlr_output->pending.committed & ~supported) {
		return false;
	}
	if ((wlr_output->pending.committed & WLR_OUTPUT_STATE_MODE) &&
			wlr_output->pending.mode_type != WLR_OUTPUT_STATE_MODE_CUSTOM) {
		return false;
	}
	return true;
}

static bool output_commit(struct wlr_output *wlr_output) {
	struct headless_output *output = output_from_wlr(wlr_output);
	if (!output_test(wlr_output)) {
		return false;
	}
	const struct wlr_output_state *pending = &wlr_output->pending;
	if (pending->committed & WLR_OUTPUT_STATE_ENABLED) {
		wlr_output_update_enabled(wlr_output, pending->enabled);
	}
	if (pending->committed & WLR_OUTPUT_STATE_MODE) {
		output_set_mode(output, pending->custom_mode.width,
			pending->custom_mode.height, pending->custom_mode.refresh);
	}
	if (pending->committed & WLR_OUTPUT_STATE_BUFFER) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		struct wlr_output_event_present present = {
			.commit_seq = wlr_output->commit_seq + 1,
			.presented = true,
			.when = &now,
			.refresh = output->frame_delay_ms * 1000000,
		};
		wlr_output_send_present(wlr_output, &present);
		/* One "vsync" later the output may draw again; no commit, no timer. */
		wl_event_source_timer_update(output->frame_timer, output->frame_delay_ms);
	}
	return true;
}

static void output_destroy(struct wlr_output *wlr_output) {
	struct headless_output *output = output_from_wlr(wlr_output);
	wl_list_remove(&output->link);
	wl_event_source_remove(output->frame_timer);
	free(output);
}

static const struct wlr_output_impl output_impl = {
	.destroy = output_destroy,
	.test = output_test,
	.commit = output_commit,
};

bool headless_output_is(struct wlr_output *wlr_output) {
	return wlr_output->impl == &output_impl;
}

static int handle_frame_timer(void *data) {
	struct headless_output *output = data;
	wlr_output_send_frame(&output->base);
	return 0;
}

struct wlr_output *headless_backend_add_output(struct wlr_backend *wlr_backend,
		int width, int height, int refresh_mhz) {
	struct headless_backend *backend = backend_from_wlr(wlr_backend);
	struct headless_output *output = zalloc(sizeof(*output));
	output->backend = backend;
	wlr_output_init(&output->base, &backend->base, &output_impl, backend->display);
	output_set_mode(output, width, height, refresh_mhz);

	struct wlr_output *wlr_output = &output->base;
	snprintf(wlr_output->make, sizeof(wlr_output->make), "oriel");
	snprintf(wlr_output->model, sizeof(wlr_output->model), "headless");
	char name[32];
	snprintf(name, sizeof(name), "HEADLESS-%d", ++backend->last_output_num);
	wlr_output_set_name(wlr_output, name);
	char description[64];
	snprintf(description, sizeof(description), "oriel headless output %d",
		backend->last_output_num);
	wlr_output_set_description(wlr_output, description);

	output->frame_timer = wl_event_loop_add_timer(
		wl_display_get_event_loop(backend->display), handle_frame_timer, output);
	wl_list_insert(backend->outputs.prev, &output->link);

	if (backend->started) {
		wlr_output_update_enabled(wlr_output, true);
		wl_signal_emit(&backend->base.events.new_output, wlr_output);
	}
	return wlr_output;
}

static bool backend_start(struct wlr_backend *wlr_backend) {
	struct headless_backend *backend = backend_from_wlr(wlr_backend);
	backend->started = true;
	struct headless_output *output;
	wl_list_for_each(output, &backend->outputs, link) {
		wlr_output_update_enabled(&output->base, true);
		wl_signal_emit(&backend->base.events.new_output, &output->base);
	}
	return true;
}

static void backend_destroy(struct wlr_backend *wlr_backend) {
	if (!wlr_backend) {
		return;
	}
	struct headless_backend *backend = backend_from_wlr(wlr_backend);
	wl_list_remove(&backend->display_destroy.link);
	struct headless_output *output, *tmp;
	wl_list_for_each_safe(output, tmp, &backend->outputs, link) {
		wlr_output_destroy(&output->base);
	}
	wlr_backend_finish(wlr_backend);
	free(backend);
}

static uint32_t backend_get_buffer_caps(struct wlr_backend *wlr_backend) {
	return WLR_BUFFER_CAP_DATA_PTR | WLR_BUFFER_CAP_DMABUF | WLR_BUFFER_CAP_SHM;
}

static const struct wlr_backend_impl backend_impl = {
	.start = backend_start,
	.destroy = backend_destroy,
	.get_buffer_caps = backend_get_buffer_caps,
};

bool headless_backend_is(struct wlr_backend *wlr_backend) {
	return wlr_backend->impl == &backend_impl;
}

static void handle_display_destroy(struct wl_listener *listener, void *data) {
	struct headless_backend *backend =
		wl_container_of(listener, backend, display_destroy);
	backend_destroy(&backend->base);
}

struct wlr_backend *headless_backend_create(struct wl_display *display) {
	struct headless_backend *backend = zalloc(sizeof(*backend));
	wlr_backend_init(&backend->base, &backend_impl);
	backend->display = display;
	wl_list_init(&backend->outputs);
	backend->display_destroy.notify = handle_display_destroy;
	wl_display_add_destroy_listener(display, &backend->display_destroy);
	return &backend->base;
}
