/* SPDX-License-Identifier: MIT */
/* See share_indicator.h. A scene rect with a line of text, in LAYER_SYSTEM. */
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_scene.h>
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/seat_grab.h"
#include "compositor/server.h"
#include "compositor/share_indicator.h"
#include "compositor/text_buffer.h"
#include "common/util.h"

#define BADGE_WIDTH 420
#define BADGE_HEIGHT 26
#define MARGIN 8

static const float badge_colour[4] = { 0xd3 / 255.0f, 0x54 / 255.0f, 0x00 / 255.0f, 1.0f };
static const float text_colour[4] = { 1.0f, 1.0f, 1.0f, 1.0f };

struct share_indicator {
	struct server *server;
	share_indicator_stop_fn stop;
	void *data;
	char *text;
	char *hint; /* drawn whole, at the right end; the text is shortened first */
	struct wlr_box box; /* layout coordinates, while shown */
	bool pressed;
	struct wlr_scene_tree *tree;
	struct wl_listener outputs_changed;
	struct seat_grab grab; /* listens for a press on the badge */
};

static const struct seat_grab_interface grab_impl;

/* (Re)draws the badge for the current text and outputs. */
static void build(struct share_indicator *indicator) {
	if (indicator->tree) {
		wlr_scene_node_destroy(&indicator->tree->node);
		indicator->tree = NULL;
	}
	indicator->box = (struct wlr_box){0};
	struct server *server = indicator->server;
	if (!indicator->text || wl_list_empty(&server->outputs)) {
		return;
	}
	struct output *output = wl_container_of(server->outputs.next, output, link);
	struct wlr_box area;
	output_layout_box(output, &area);
	int width = BADGE_WIDTH < area.width - 2 * MARGIN ? BADGE_WIDTH : area.width - 2 * MARGIN;
	if (width <= 0) {
		return;
	}
	indicator->box = (struct wlr_box){
		.x = area.x + area.width - MARGIN - width,
		.y = area.y + MARGIN,
		.width = width,
		.height = BADGE_HEIGHT,
	};
	indicator->tree = wlr_scene_tree_create(&server->layers[LAYER_SYSTEM]->node);
	if (!indicator->tree) {
		return;
	}
	/* Below a prompt, if one is up: the prompt is the thing to answer. */
	wlr_scene_node_lower_to_bottom(&indicator->tree->node);
	wlr_scene_node_set_position(&indicator->tree->node, indicator->box.x, indicator->box.y);
	wlr_scene_rect_create(&indicator->tree->node, width, BADGE_HEIGHT, badge_colour);
	struct wlr_buffer *buffer = text_buffer_create_with_tail(indicator->text,
		indicator->hint, width, BADGE_HEIGHT, text_colour);
	if (buffer) {
		wlr_scene_buffer_create(&indicator->tree->node, buffer);
		wlr_buffer_drop(buffer);
	}
}

static void handle_outputs_changed(struct wl_listener *listener, void *data) {
	struct share_indicator *indicator =
		wl_container_of(listener, indicator, outputs_changed);
	build(indicator);
}

struct share_indicator *share_indicator_create(struct server *server,
		share_indicator_stop_fn stop, void *data) {
	struct share_indicator *indicator = zalloc(sizeof(*indicator));
	indicator->server = server;
	indicator->stop = stop;
	indicator->data = data;
	indicator->outputs_changed.notify = handle_outputs_changed;
	wl_signal_add(&server->events_outputs_changed, &indicator->outputs_changed);
	indicator->grab.impl = &grab_impl;
	seat_grab_listen(server->seat, &indicator->grab);
	server->share_indicator = indicator;
	return indicator;
}

void share_indicator_destroy(struct share_indicator *indicator) {
	if (!indicator) {
		return;
	}
	if (indicator->server->share_indicator == indicator) {
		indicator->server->share_indicator = NULL;
	}
	wl_list_remove(&indicator->outputs_changed.link);
	seat_grab_unlisten(&indicator->grab);
	if (indicator->tree) {
		wlr_scene_node_destroy(&indicator->tree->node);
	}
	free(indicator->text);
	free(indicator->hint);
	free(indicator);
}

static bool same_text(const char *a, const char *b) {
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

void share_indicator_set_text(struct share_indicator *indicator, const char *text,
		const char *hint) {
	if (!text || !text[0]) {
		text = NULL;
		hint = NULL;
	}
	if (hint && !hint[0]) {
		hint = NULL;
	}
	if (same_text(text, indicator->text) && same_text(hint, indicator->hint)) {
		return;
	}
	free(indicator->text);
	free(indicator->hint);
	indicator->text = text ? xstrdup(text) : NULL;
	indicator->hint = hint ? xstrdup(hint) : NULL;
	indicator->pressed = false;
	build(indicator);
}

/* A press on the badge and its release reach no client. */
static bool grab_button(struct seat_grab *grab, double lx, double ly, uint32_t button,
		bool pressed) {
	struct share_indicator *indicator = wl_container_of(grab, indicator, grab);
	bool on_badge = indicator->tree && wlr_box_contains_point(&indicator->box, lx, ly);
	if (pressed) {
		indicator->pressed = on_badge;
		return on_badge;
	}
	if (!indicator->pressed) {
		return false;
	}
	indicator->pressed = false;
	if (on_badge && indicator->stop) {
		indicator->stop(indicator->data);
	}
	return true;
}

static const struct seat_grab_interface grab_impl = {
	.pointer_button = grab_button,
};
