/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_output_management_v1.h>
#include <wlr/util/log.h>
#include "compositor/output.h"
#include "compositor/output_management.h"
#include "compositor/server.h"
#include "common/util.h"

/* As output_set_size accepts. */
#define MAX_OUTPUT_SIZE 16384

struct output_management {
	struct server *server;
	struct wlr_output_manager_v1 *manager;
	struct wl_listener apply;
	struct wl_listener test;
	struct wl_listener outputs_changed;
	struct wl_listener manager_destroy;
};

/* Tells every client the outputs as they are now. */
static void send_current(struct output_management *management) {
	struct wlr_output_configuration_v1 *config = wlr_output_configuration_v1_create();
	if (!config) {
		return;
	}
	struct output *output;
	wl_list_for_each(output, &management->server->outputs, link) {
		struct wlr_output_configuration_head_v1 *head =
			wlr_output_configuration_head_v1_create(config, output->wlr_output);
		if (!head) {
			wlr_output_configuration_v1_destroy(config);
			return;
		}
		struct wlr_box box;
		output_layout_box(output, &box);
		head->state.x = box.x;
		head->state.y = box.y;
	}
	wlr_output_manager_v1_set_configuration(management->manager, config);
}

static void handle_outputs_changed(struct wl_listener *listener, void *data) {
	struct output_management *management =
		wl_container_of(listener, management, outputs_changed);
	send_current(management);
}

/*
 * Puts one head's state into its output's pending state. Disabling is
 * refused: oriel keeps every output it has in the layout.
 */
static bool stage_head(struct wlr_output_configuration_head_v1 *head) {
	struct wlr_output *wlr_output = head->state.output;
	if (!head->state.enabled) {
		wlr_log(WLR_INFO, "output management: cannot disable %s", wlr_output->name);
		return false;
	}
	if (head->state.mode) {
		wlr_output_set_mode(wlr_output, head->state.mode);
	} else {
		int width = head->state.custom_mode.width;
		int height = head->state.custom_mode.height;
		if (width < 1 || height < 1 || width > MAX_OUTPUT_SIZE ||
				height > MAX_OUTPUT_SIZE || head->state.custom_mode.refresh < 0) {
			wlr_log(WLR_INFO, "output management: size %dx%d out of range for %s",
				width, height, wlr_output->name);
			return false;
		}
		wlr_output_set_custom_mode(wlr_output, width, height,
			head->state.custom_mode.refresh);
	}
	if (head->state.scale <= 0) {
		return false;
	}
	wlr_output_set_scale(wlr_output, head->state.scale);
	wlr_output_set_transform(wlr_output, head->state.transform);
	return true;
}

/* Every head must be one of our outputs, and each must pass the backend's test. */
static bool test_config(struct output_management *management,
		struct wlr_output_configuration_v1 *config) {
	bool ok = true;
	struct wlr_output_configuration_head_v1 *head;
	wl_list_for_each(head, &config->heads, link) {
		struct wlr_output *wlr_output = head->state.output;
		if (!wlr_output->data) {
			ok = false; /* an output oriel could not use */
			break;
		}
		ok = stage_head(head) && wlr_output_test(wlr_output);
		wlr_output_rollback(wlr_output);
		if (!ok) {
			break;
		}
	}
	return ok;
}

static bool apply_config(struct output_management *management,
		struct wlr_output_configuration_v1 *config) {
	if (!test_config(management, config)) {
		return false;
	}
	struct wlr_output_configuration_head_v1 *head;
	wl_list_for_each(head, &config->heads, link) {
		struct wlr_output *wlr_output = head->state.output;
		if (!stage_head(head) || !wlr_output_commit(wlr_output)) {
			wlr_output_rollback(wlr_output);
			return false;
		}
		wlr_output_layout_move(management->server->output_layout, wlr_output,
			head->state.x, head->state.y);
		/* Repaint at the new size, as output_set_size does. */
		wlr_output_schedule_frame(wlr_output);
	}
	return true;
}

static void handle_test(struct wl_listener *listener, void *data) {
	struct output_management *management = wl_container_of(listener, management, test);
	struct wlr_output_configuration_v1 *config = data;
	if (test_config(management, config)) {
		wlr_output_configuration_v1_send_succeeded(config);
	} else {
		wlr_output_configuration_v1_send_failed(config);
	}
	wlr_output_configuration_v1_destroy(config);
}

static void handle_apply(struct wl_listener *listener, void *data) {
	struct output_management *management = wl_container_of(listener, management, apply);
	struct wlr_output_configuration_v1 *config = data;
	if (apply_config(management, config)) {
		wlr_output_configuration_v1_send_succeeded(config);
	} else {
		wlr_output_configuration_v1_send_failed(config);
	}
	wlr_output_configuration_v1_destroy(config);
	/* A failed apply may have changed some outputs; say what they are now. */
	send_current(management);
}

static void handle_manager_destroy(struct wl_listener *listener, void *data) {
	struct output_management *management =
		wl_container_of(listener, management, manager_destroy);
	wl_list_remove(&management->apply.link);
	wl_list_remove(&management->test.link);
	wl_list_remove(&management->manager_destroy.link);
	wl_list_init(&management->apply.link);
	wl_list_init(&management->test.link);
	wl_list_init(&management->manager_destroy.link);
	management->manager = NULL;
}

struct output_management *output_management_create(struct server *server) {
	struct wlr_output_manager_v1 *manager = wlr_output_manager_v1_create(server->display);
	if (!manager) {
		return NULL;
	}
	struct output_management *management = zalloc(sizeof(*management));
	management->server = server;
	management->manager = manager;
	management->apply.notify = handle_apply;
	wl_signal_add(&manager->events.apply, &management->apply);
	management->test.notify = handle_test;
	wl_signal_add(&manager->events.test, &management->test);
	management->manager_destroy.notify = handle_manager_destroy;
	wl_signal_add(&manager->events.destroy, &management->manager_destroy);
	management->outputs_changed.notify = handle_outputs_changed;
	wl_signal_add(&server->events_outputs_changed, &management->outputs_changed);
	send_current(management);
	return management;
}

void output_management_destroy(struct output_management *management) {
	if (!management) {
		return;
	}
	wl_list_remove(&management->apply.link);
	wl_list_remove(&management->test.link);
	wl_list_remove(&management->manager_destroy.link);
	wl_list_remove(&management->outputs_changed.link);
	free(management);
}
