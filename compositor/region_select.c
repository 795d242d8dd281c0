/* SPDX-License-Identifier: MIT */
/*
 * The region selector (see region_select.h): scene rects in LAYER_SYSTEM,
 * four dimming the layout around the rectangle being dragged and four
 * framing it; before the drag one dims everything. Rebuilt when the
 * outputs change.
 */
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>
#include "compositor/region_geometry.h"
#include "compositor/region_select.h"
#include "compositor/seat.h"
#include "compositor/seat_grab.h"
#include "compositor/server.h"
#include "common/util.h"

#define RGB(r, g, b) { (r) / 255.0f, (g) / 255.0f, (b) / 255.0f, 1.0f }
static const float dim_colour[4] = { 0.0f, 0.0f, 0.0f, 0.5f };
static const float frame_colour[4] = RGB(0x2f, 0x6f, 0xcf);
#define FRAME_WIDTH 1
#define DEFAULT_TIMEOUT_MS 60000u

struct region_select {
	struct server *server;
	region_select_fn fn;
	void *data;

	struct placement_box layout; /* the outputs' bounding box */
	bool dragging;
	double x0, y0; /* where the left button went down */
	struct placement_box box; /* the rectangle so far */

	struct wlr_scene_tree *tree;
	struct wlr_scene_rect *dim[4];   /* above, below, left, right of box */
	struct wlr_scene_rect *frame[4]; /* top, bottom, left, right edges */

	struct wl_event_source *timer;
	struct wl_listener outputs_changed;
	struct seat_grab grab; /* modal: the drag reaches no client */
};

static const struct seat_grab_interface grab_impl;

static bool layout_box(struct server *server, struct placement_box *out) {
	struct wlr_box *all = wlr_output_layout_get_box(server->output_layout, NULL);
	if (!all || all->width <= 0 || all->height <= 0) {
		return false;
	}
	*out = (struct placement_box){ all->x, all->y, all->width, all->height };
	return true;
}

static void place(struct wlr_scene_rect *rect, int x, int y, int width, int height) {
	if (!rect) {
		return;
	}
	bool shown = width > 0 && height > 0;
	wlr_scene_node_set_enabled(&rect->node, shown);
	if (shown) {
		wlr_scene_node_set_position(&rect->node, x, y);
		wlr_scene_rect_set_size(rect, width, height);
	}
}

/* Positions the rects for the box (dimming everything while it is empty). */
static void update(struct region_select *select) {
	const struct placement_box *l = &select->layout;
	const struct placement_box *b = &select->box;
	if (!select->dragging || !region_geometry_nonempty(b)) {
		place(select->dim[0], l->x, l->y, l->width, l->height);
		for (int i = 1; i < 4; i++) {
			place(select->dim[i], 0, 0, 0, 0);
		}
		for (int i = 0; i < 4; i++) {
			place(select->frame[i], 0, 0, 0, 0);
		}
		return;
	}
	int right = b->x + b->width, bottom = b->y + b->height;
	int l_right = l->x + l->width, l_bottom = l->y + l->height;
	place(select->dim[0], l->x, l->y, l->width, b->y - l->y);
	place(select->dim[1], l->x, bottom, l->width, l_bottom - bottom);
	place(select->dim[2], l->x, b->y, b->x - l->x, b->height);
	place(select->dim[3], right, b->y, l_right - right, b->height);
	/* The frame lies just outside the box: the box itself shows as it is. */
	int f = FRAME_WIDTH;
	place(select->frame[0], b->x - f, b->y - f, b->width + 2 * f, f);
	place(select->frame[1], b->x - f, bottom, b->width + 2 * f, f);
	place(select->frame[2], b->x - f, b->y, f, b->height);
	place(select->frame[3], right, b->y, f, b->height);
}

static void build(struct region_select *select) {
	if (select->tree) {
		wlr_scene_node_destroy(&select->tree->node);
		select->tree = NULL;
	}
	if (!layout_box(select->server, &select->layout)) {
		return;
	}
	select->tree = wlr_scene_tree_create(&select->server->layers[LAYER_SYSTEM]->node);
	if (!select->tree) {
		return;
	}
	for (int i = 0; i < 4; i++) {
		select->dim[i] = wlr_scene_rect_create(&select->tree->node, 1, 1, dim_colour);
	}
	for (int i = 0; i < 4; i++) {
		select->frame[i] = wlr_scene_rect_create(&select->tree->node, 1, 1, frame_colour);
	}
	if (select->dragging) {
		select->box = region_geometry_box(select->x0, select->y0,
			select->server->seat->cursor->x, select->server->seat->cursor->y,
			&select->layout);
	}
	update(select);
}

static void finish_with(struct region_select *select, bool selected) {
	region_select_fn fn = select->fn;
	void *data = select->data;
	struct placement_box box = select->box;
	select->fn = NULL;
	/* The callee usually destroys the selector: touch nothing after this. */
	if (fn) {
		fn(selected, &box, data);
	}
}

static int handle_timeout(void *data) {
	struct region_select *select = data;
	wlr_log(WLR_INFO, "region select: no region in time: cancelled");
	finish_with(select, false);
	return 0;
}

static void handle_outputs_changed(struct wl_listener *listener, void *data) {
	struct region_select *select = wl_container_of(listener, select, outputs_changed);
	build(select);
}

struct region_select *region_select_create(struct server *server, uint32_t timeout_ms,
		region_select_fn fn, void *data) {
	struct placement_box layout;
	if (server->prompt || server->region_select || !layout_box(server, &layout)) {
		return NULL;
	}
	struct region_select *select = zalloc(sizeof(*select));
	select->server = server;
	select->fn = fn;
	select->data = data;
	select->layout = layout;
	server->region_select = select;
	select->outputs_changed.notify = handle_outputs_changed;
	wl_signal_add(&server->events_outputs_changed, &select->outputs_changed);
	select->timer = wl_event_loop_add_timer(server->loop, handle_timeout, select);
	if (select->timer) {
		uint32_t ms = timeout_ms ? timeout_ms : DEFAULT_TIMEOUT_MS;
		wl_event_source_timer_update(select->timer, ms > INT32_MAX ? INT32_MAX : (int)ms);
	}
	build(select);
	/* Clients lose the pointer and the keyboard while it is up. */
	select->grab.impl = &grab_impl;
	seat_grab_begin(server->seat, &select->grab);
	wlr_log(WLR_INFO, "region select: shown over %d,%d %dx%d", layout.x, layout.y,
		layout.width, layout.height);
	return select;
}

void region_select_destroy(struct region_select *select) {
	if (!select) {
		return;
	}
	struct server *server = select->server;
	if (select->timer) {
		wl_event_source_remove(select->timer);
	}
	wl_list_remove(&select->outputs_changed.link);
	if (select->tree) {
		wlr_scene_node_destroy(&select->tree->node);
	}
	if (server->region_select == select) {
		server->region_select = NULL;
	}
	seat_grab_end(&select->grab);
	free(select);
}

static bool grab_motion(struct seat_grab *grab, double lx, double ly) {
	struct region_select *select = wl_container_of(grab, select, grab);
	if (select->dragging) {
		select->box = region_geometry_box(select->x0, select->y0, lx, ly,
			&select->layout);
		update(select);
	}
	return true;
}

static bool grab_button(struct seat_grab *grab, double lx, double ly, uint32_t button,
		bool pressed) {
	struct region_select *select = wl_container_of(grab, select, grab);
	if (button != BTN_LEFT) {
		return true;
	}
	if (pressed) {
		select->dragging = true;
		select->x0 = lx;
		select->y0 = ly;
		select->box = region_geometry_box(lx, ly, lx, ly, &select->layout);
		update(select);
		return true;
	}
	if (!select->dragging) {
		return true;
	}
	select->box = region_geometry_box(select->x0, select->y0, lx, ly, &select->layout);
	select->dragging = false;
	if (!region_geometry_nonempty(&select->box)) {
		update(select); /* nothing dragged: the person may try again */
		return true;
	}
	wlr_log(WLR_INFO, "region select: %d,%d %dx%d", select->box.x, select->box.y,
		select->box.width, select->box.height);
	finish_with(select, true);
	return true;
}

/* Escape cancels; no key reaches a client. */
static bool grab_key(struct seat_grab *grab, xkb_keysym_t sym, bool pressed,
		uint32_t modifiers) {
	struct region_select *select = wl_container_of(grab, select, grab);
	if (pressed && sym == XKB_KEY_Escape) {
		wlr_log(WLR_INFO, "region select: cancelled with Escape");
		finish_with(select, false);
	}
	return true;
}

static const struct seat_grab_interface grab_impl = {
	.key = grab_key,
	.pointer_motion = grab_motion,
	.pointer_button = grab_button,
	.modal = true,
	.cursor = "crosshair",
};
