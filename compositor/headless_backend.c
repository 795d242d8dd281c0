/* SPDX-License-Identifier: MIT */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <drm_fourcc.h>
#include <wlr/backend/interface.h>
#include <wlr/interfaces/wlr_output.h>
#include <wlr/render/pixman.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/util/log.h>
#include "compositor/frame_pacer.h"
#include "compositor/headless_backend.h"
#include "compositor/present_clock.h"
#include "common/util.h"

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
	struct wl_event_source *frame_idle; /* a frame event due at once */
	int frame_delay_ms;
	struct frame_pacer pacer;
	struct present_clock present_clock;
	/* The present of the last commit, sent once its commit event is out. */
	struct wl_event_source *present_idle;
	struct {
		bool pending;
		uint32_t commit_seq;
		struct timespec when;
		uint64_t seq;
	} present;
	struct headless_cursor cursor;
	struct {
		struct wl_signal cursor_shape;  /* struct wlr_output * */
		struct wl_signal cursor_motion; /* struct wlr_output * */
	} events;
};

/* Larger cursor images go back to wlroots' software cursor. */
#define MAX_CURSOR_SIZE 256

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
	frame_pacer_init(&output->pacer, 1000000000LL / refresh_mhz);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	int64_t now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	if (output->present_clock.period_ns) {
		present_clock_set_period(&output->present_clock,
			present_clock_period_ns(refresh_mhz), now_ns);
	} else {
		present_clock_init(&output->present_clock,
			present_clock_period_ns(refresh_mhz), now_ns);
	}
	if (output->frame_delay_ms < 1) {
		output->frame_delay_ms = 1;
	}
	wlr_output_update_custom_mode(&output->base, width, height, refresh_mhz);
}

/*
 * A client's buffer to scan out: only in the 32-bit formats that sinks
 * (VNC, casts) read; anything else is composited into one of ours.
 */
static bool scanout_readable(struct wlr_buffer *buffer) {
	struct wlr_client_buffer *client = wlr_client_buffer_get(buffer);
	if (!client) {
		return true; /* ours, from the swapchain */
	}
	if (!client->texture || !wlr_texture_is_pixman(client->texture)) {
		return false;
	}
	switch (pixman_image_get_format(wlr_pixman_texture_get_image(client->texture))) {
	case PIXMAN_x8r8g8b8:
	case PIXMAN_a8r8g8b8:
	case PIXMAN_x8b8g8r8:
	case PIXMAN_a8b8g8r8:
		return true;
	default:
		return false;
	}
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
	if ((wlr_output->pending.committed & WLR_OUTPUT_STATE_BUFFER) &&
			!wlr_output->back_buffer && !scanout_readable(wlr_output->pending.buffer)) {
		return false;
	}
	return true;
}

static void handle_frame_idle(void *data) {
	struct headless_output *output = data;
	output->frame_idle = NULL;
	wlr_output_send_frame(&output->base);
}

static int handle_frame_timer(void *data) {
	struct headless_output *output = data;
	wlr_output_send_frame(&output->base);
	return 0;
}

/*
 * After a present, the frame event that lets wlroots draw again: at once
 * when the pacer allows, else when it will (frame_pacer.h). Until then
 * wlroots holds damage back; no commit, no timer.
 */
static void schedule_next_frame(struct headless_output *output, int64_t now_us) {
	int64_t wait_us = frame_pacer_presented(&output->pacer, now_us);
	struct wl_event_loop *loop = wl_display_get_event_loop(output->backend->display);
	if (wait_us == 0) {
		if (!output->frame_idle) {
			output->frame_idle = wl_event_loop_add_idle(loop, handle_frame_idle, output);
		}
		return;
	}
	wl_event_source_timer_update(output->frame_timer, (int)((wait_us + 999) / 1000));
}

/*
 * wlroots 0.15 matches presentation feedback to a present by the commit
 * sequence number it learns from the output's commit event, which comes
 * after this backend's commit returns: a present sent from inside the
 * commit finds no feedback yet, and every client's frames would wait for
 * their feedback forever. So the present goes out after the commit: from
 * an idle callback, or at the start of the next commit, whichever is first.
 * Headless presents are not synced to a vblank and their time is read from
 * the clock, not hardware: no flags.
 */
static void send_present(struct headless_output *output) {
	if (!output->present.pending) {
		return;
	}
	output->present.pending = false;
	struct wlr_output_event_present event = {
		.commit_seq = output->present.commit_seq,
		.presented = true,
		.when = &output->present.when,
		.seq = (unsigned)output->present.seq,
		.refresh = (int)output->present_clock.period_ns,
		.flags = 0,
	};
	wlr_output_send_present(&output->base, &event);
}

static void handle_present_idle(void *data) {
	struct headless_output *output = data;
	output->present_idle = NULL;
	send_present(output);
}

static void queue_present(struct headless_output *output, const struct timespec *now) {
	send_present(output);
	output->present.pending = true;
	output->present.commit_seq = output->base.commit_seq + 1;
	output->present.when = *now;
	output->present.seq = present_clock_present(&output->present_clock,
		(int64_t)now->tv_sec * 1000000000 + now->tv_nsec);
	if (!output->present_idle) {
		output->present_idle = wl_event_loop_add_idle(
			wl_display_get_event_loop(output->backend->display),
			handle_present_idle, output);
	}
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
		queue_present(output, &now);
		schedule_next_frame(output, (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000);
	}
	return true;
}

/*
 * The cursor plane: wlroots draws the cursor into a buffer of its own and
 * hands it here instead of compositing it into every frame, so frames and
 * their damage carry no cursor. We keep a copy of its pixels for sinks
 * that send the cursor as metadata (the VNC rich cursor).
 */
static bool copy_cursor_pixels(struct wlr_buffer *buffer, struct headless_cursor *out) {
	void *data;
	uint32_t format;
	size_t stride;
	if (!wlr_buffer_begin_data_ptr_access(buffer, WLR_BUFFER_DATA_PTR_ACCESS_READ,
			&data, &format, &stride)) {
		return false;
	}
	bool ok = false;
	int width = buffer->width, height = buffer->height;
	if ((format == DRM_FORMAT_ARGB8888 || format == DRM_FORMAT_XRGB8888) &&
			width > 0 && height > 0 && width <= MAX_CURSOR_SIZE &&
			height <= MAX_CURSOR_SIZE && stride >= (size_t)width * 4) {
		uint32_t *pixels = malloc((size_t)width * height * 4);
		if (pixels) {
			for (int y = 0; y < height; y++) {
				const uint32_t *row = (const uint32_t *)((const uint8_t *)data + y * stride);
				uint32_t *dst = pixels + (size_t)y * width;
				memcpy(dst, row, (size_t)width * 4);
				if (format == DRM_FORMAT_XRGB8888) {
					for (int x = 0; x < width; x++) {
						dst[x] |= 0xff000000u;
					}
				}
			}
			free(out->pixels);
			out->pixels = pixels;
			out->width = width;
			out->height = height;
			ok = true;
		}
	}
	wlr_buffer_end_data_ptr_access(buffer);
	return ok;
}

static bool output_set_cursor(struct wlr_output *wlr_output, struct wlr_buffer *buffer,
		int hotspot_x, int hotspot_y) {
	struct headless_output *output = output_from_wlr(wlr_output);
	struct headless_cursor *cursor = &output->cursor;
	if (buffer) {
		if (!copy_cursor_pixels(buffer, cursor)) {
			return false; /* wlroots falls back to a software cursor */
		}
		cursor->hotspot_x = hotspot_x;
		cursor->hotspot_y = hotspot_y;
		cursor->visible = true;
	} else {
		free(cursor->pixels);
		cursor->pixels = NULL;
		cursor->width = cursor->height = 0;
		cursor->hotspot_x = cursor->hotspot_y = 0;
		cursor->visible = false;
	}
	cursor->serial++;
	wl_signal_emit(&output->events.cursor_shape, wlr_output);
	/*
	 * A software cursor's damage made wlroots draw a frame here, and the
	 * frame done events that come with it; Xwayland waits for those
	 * before it posts more window content (test_kiosk's dialog). Keep
	 * that one frame per new image; it has no damage, so it costs
	 * little and sinks copy nothing. Motion alone draws nothing.
	 */
	wlr_output_schedule_frame(wlr_output);
	return true;
}

static bool output_move_cursor(struct wlr_output *wlr_output, int x, int y) {
	struct headless_output *output = output_from_wlr(wlr_output);
	if (output->cursor.x == x && output->cursor.y == y) {
		return true;
	}
	output->cursor.x = x;
	output->cursor.y = y;
	wl_signal_emit(&output->events.cursor_motion, wlr_output);
	return true;
}

static void output_destroy(struct wlr_output *wlr_output) {
	struct headless_output *output = output_from_wlr(wlr_output);
	wl_list_remove(&output->link);
	wl_event_source_remove(output->frame_timer);
	if (output->frame_idle) {
		wl_event_source_remove(output->frame_idle);
	}
	if (output->present_idle) {
		wl_event_source_remove(output->present_idle);
	}
	free(output->cursor.pixels);
	free(output);
}

static const struct wlr_output_impl output_impl = {
	.destroy = output_destroy,
	.test = output_test,
	.commit = output_commit,
	.set_cursor = output_set_cursor,
	.move_cursor = output_move_cursor,
};

const struct headless_cursor *headless_output_cursor(struct wlr_output *wlr_output) {
	if (!wlr_output || !headless_output_is(wlr_output)) {
		return NULL;
	}
	return &output_from_wlr(wlr_output)->cursor;
}

bool headless_output_add_cursor_listeners(struct wlr_output *wlr_output,
		struct wl_listener *shape, struct wl_listener *motion) {
	if (!wlr_output || !headless_output_is(wlr_output)) {
		return false;
	}
	struct headless_output *output = output_from_wlr(wlr_output);
	wl_signal_add(&output->events.cursor_shape, shape);
	wl_signal_add(&output->events.cursor_motion, motion);
	return true;
}

bool headless_output_is(struct wlr_output *wlr_output) {
	return wlr_output->impl == &output_impl;
}

struct wlr_output *headless_backend_add_output(struct wlr_backend *wlr_backend,
		int width, int height, int refresh_mhz) {
	return headless_backend_add_named_output(wlr_backend, "HEADLESS", width, height,
		refresh_mhz);
}

struct wlr_output *headless_backend_add_named_output(struct wlr_backend *wlr_backend,
		const char *prefix, int width, int height, int refresh_mhz) {
	struct headless_backend *backend = backend_from_wlr(wlr_backend);
	struct headless_output *output = zalloc(sizeof(*output));
	output->backend = backend;
	wl_signal_init(&output->events.cursor_shape);
	wl_signal_init(&output->events.cursor_motion);
	wlr_output_init(&output->base, &backend->base, &output_impl, backend->display);
	output_set_mode(output, width, height, refresh_mhz);

	struct wlr_output *wlr_output = &output->base;
	snprintf(wlr_output->make, sizeof(wlr_output->make), "oriel");
	snprintf(wlr_output->model, sizeof(wlr_output->model), "headless");
	char name[40];
	snprintf(name, sizeof(name), "%.20s-%d", prefix, ++backend->last_output_num);
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
