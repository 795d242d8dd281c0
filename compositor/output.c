/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <drm_fourcc.h>
#include <wlr/backend.h>
#include <wlr/backend/wayland.h>
#include <wlr/render/allocator.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_damage.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/util/log.h>
#include "compositor/headless_backend.h"
#include "compositor/layer_shell.h"
#include "compositor/output.h"
#include "compositor/output_gather.h"
#include "compositor/output_release.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"

static void handle_frame(struct wl_listener *listener, void *data) {
	struct output *output = wl_container_of(listener, output, frame);
	/*
	 * Only when something changed: wlroots would otherwise commit a
	 * scanned-out fullscreen buffer again on every frame, forever.
	 */
	if (output->wlr_output->needs_frame ||
			pixman_region32_not_empty(&output->scene_output->damage->current)) {
		if (!output_gather_ready(output->gather)) {
			return;
		}
		wlr_scene_output_commit(output->scene_output);
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	wlr_scene_output_send_frame_done(output->scene_output, &now);
}

static void output_geometry_changed(struct server *server) {
	struct output *output;
	wl_list_for_each(output, &server->outputs, link) {
		layer_shell_arrange(output);
	}
	wl_signal_emit(&server->events_outputs_changed, NULL);
}

static void handle_mode(struct wl_listener *listener, void *data) {
	struct output *output = wl_container_of(listener, output, mode);
	output_geometry_changed(output->server);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct output *output = wl_container_of(listener, output, destroy);
	struct server *server = output->server;
	wl_list_remove(&output->frame.link);
	wl_list_remove(&output->mode.link);
	wl_list_remove(&output->destroy.link);
	wl_list_remove(&output->link);
	output_release_destroy(output->release);
	output_gather_destroy(output->gather);
	layer_shell_output_destroyed(output);
	wlr_scene_output_destroy(output->scene_output);
	wlr_output_layout_remove(server->output_layout, output->wlr_output);
	free(output);
	output_geometry_changed(server);
	/* Windows that were on it only are not lost off-screen. */
	view_gather_offscreen(server);
}

static void handle_new_output(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_output);
	struct wlr_output *wlr_output = data;

	if (!wlr_output_init_render(wlr_output, server->allocator, server->renderer)) {
		wlr_log(WLR_ERROR, "Cannot render to output %s", wlr_output->name);
		return;
	}
	/*
	 * A nested output's frames go to the parent compositor. In XRGB8888 the
	 * padding byte of what pixman copies from X clients stays 0, and Weston
	 * takes it for alpha: its screenshots showed an xterm's text as
	 * transparent. In ARGB8888 every pixel oriel draws is opaque.
	 */
	if (wlr_output_is_wl(wlr_output)) {
		wlr_output_set_render_format(wlr_output, DRM_FORMAT_ARGB8888);
	}
	/* DRM and nested outputs have modes; headless ones were sized at creation. */
	struct wlr_output_mode *mode = wlr_output_preferred_mode(wlr_output);
	if (mode) {
		wlr_output_set_mode(wlr_output, mode);
	}
	wlr_output_enable(wlr_output, true);
	if (!wlr_output_commit(wlr_output)) {
		wlr_log(WLR_ERROR, "Cannot enable output %s", wlr_output->name);
		return;
	}

	struct output *output = zalloc(sizeof(*output));
	output->server = server;
	output->wlr_output = wlr_output;
	wlr_output->data = output;
	output->frame.notify = handle_frame;
	wl_signal_add(&wlr_output->events.frame, &output->frame);
	output->mode.notify = handle_mode;
	wl_signal_add(&wlr_output->events.mode, &output->mode);
	output->destroy.notify = handle_destroy;
	wl_signal_add(&wlr_output->events.destroy, &output->destroy);
	wl_list_insert(server->outputs.prev, &output->link);
	output->release = output_release_create(output);
	output->gather = output_gather_create(output);

	output->scene_output = wlr_scene_output_create(server->scene, wlr_output);
	wlr_output_layout_add_auto(server->output_layout, wlr_output);
	wlr_log(WLR_INFO, "Output %s: %dx%d", wlr_output->name,
		wlr_output->width, wlr_output->height);
	output_geometry_changed(server);
}

static void handle_layout_change(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, layout_change);
	output_geometry_changed(server);
}

void output_init_server(struct server *server) {
	wl_list_init(&server->outputs);
	wl_signal_init(&server->events_outputs_changed);
	server->new_output.notify = handle_new_output;
	wl_signal_add(&server->backend->events.new_output, &server->new_output);
	server->layout_change.notify = handle_layout_change;
	wl_signal_add(&server->output_layout->events.change, &server->layout_change);
}

void output_finish_server(struct server *server) {
	if (!server->new_output.notify) {
		return; /* server_init stopped before the outputs */
	}
	wl_list_remove(&server->new_output.link);
	wl_list_remove(&server->layout_change.link);
}

struct output *output_by_name(struct server *server, const char *name) {
	struct output *output;
	wl_list_for_each(output, &server->outputs, link) {
		if (strcmp(output->wlr_output->name, name) == 0) {
			return output;
		}
	}
	return NULL;
}

struct output *output_at(struct server *server, double lx, double ly) {
	struct wlr_output *wlr_output =
		wlr_output_layout_output_at(server->output_layout, lx, ly);
	return wlr_output ? wlr_output->data : NULL;
}

struct output *output_focused(struct server *server) {
	struct output *output = NULL;
	if (server->seat) {
		struct wlr_cursor *cursor = seat_cursor(server->seat);
		output = output_at(server, cursor->x, cursor->y);
	}
	if (!output && !wl_list_empty(&server->outputs)) {
		output = wl_container_of(server->outputs.next, output, link);
	}
	return output;
}

void output_layout_box(struct output *output, struct wlr_box *box) {
	struct wlr_box *layout_box =
		wlr_output_layout_get_box(output->server->output_layout, output->wlr_output);
	*box = layout_box ? *layout_box : (struct wlr_box){0};
}

bool output_set_size(struct output *output, int width, int height) {
	struct wlr_output *wlr_output = output->wlr_output;
	if (width < 1 || height < 1 || width > 16384 || height > 16384) {
		return false;
	}
	if (!headless_output_is(wlr_output) && !wl_list_empty(&wlr_output->modes)) {
		return false; /* real monitors have fixed modes */
	}
	wlr_output_set_custom_mode(wlr_output, width, height, wlr_output->refresh);
	if (!wlr_output_commit(wlr_output)) {
		return false;
	}
	/* The layout's box and the scene follow; repaint everything at the new size. */
	wlr_output_schedule_frame(wlr_output);
	return true;
}

void output_place(struct output *output, int x, int y) {
	wlr_output_layout_add(output->server->output_layout, output->wlr_output, x, y);
}

void output_schedule_frames(struct server *server) {
	struct output *output;
	wl_list_for_each(output, &server->outputs, link) {
		wlr_output_schedule_frame(output->wlr_output);
	}
}
