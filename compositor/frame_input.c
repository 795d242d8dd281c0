/* SPDX-License-Identifier: MIT */
#include <linux/input-event-codes.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/edges.h>
#include "compositor/frame_input.h"
#include "compositor/frame_layout.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"

_Static_assert((int)FRAME_EDGE_TOP == (int)WLR_EDGE_TOP &&
	(int)FRAME_EDGE_BOTTOM == (int)WLR_EDGE_BOTTOM &&
	(int)FRAME_EDGE_LEFT == (int)WLR_EDGE_LEFT &&
	(int)FRAME_EDGE_RIGHT == (int)WLR_EDGE_RIGHT, "frame edges are wlroots' edges");

static bool has_frame(const struct view *view) {
	return view->mapped && !view->minimized && !view->fullscreen &&
		view->decoration.enabled && view->scene_tree->node.state.enabled;
}

/* The scene layer a node is in, or LAYER_COUNT when it is in none. */
static int layer_of(struct server *server, struct wlr_scene_node *node) {
	for (; node; node = node->parent) {
		for (int i = 0; i < LAYER_COUNT; i++) {
			if (node == &server->layers[i]->node) {
				return i;
			}
		}
	}
	return LAYER_COUNT;
}

/*
 * The frame part under the pointer and its view. The scene says what is
 * on top there; the grab margins, which the scene does not draw, belong
 * to views stacked above that.
 */
static struct frame_hit frame_at(struct seat *seat, struct view **view_out) {
	struct frame_hit none = { FRAME_PART_NONE, 0 };
	struct server *server = seat->server;
	*view_out = NULL;
	if (server->options->kiosk) {
		return none;
	}
	double lx = seat->cursor->x, ly = seat->cursor->y, sx, sy;
	struct wlr_scene_node *node = wlr_scene_node_at(&server->scene->node, lx, ly,
		&sx, &sy);
	struct view *owner = node ? view_from_node(node) : NULL;
	if (node && !owner && layer_of(server, node) > LAYER_VIEWS) {
		return none; /* a menu, a panel or oriel's own overlay is on top */
	}
	struct view *view;
	wl_list_for_each(view, &server->views, link) {
		if (!has_frame(view)) {
			if (view == owner) {
				return none;
			}
			continue;
		}
		struct frame_hit hit = frame_hit_test(view->geometry.width,
			view->geometry.height, !view->maximized,
			lx - view->geometry.x, ly - view->geometry.y);
		if (view == owner) {
			/* Its content and popups are the client's. */
			if (node->type == WLR_SCENE_NODE_SURFACE ||
					hit.part == FRAME_PART_CONTENT) {
				return none;
			}
			*view_out = view;
			return hit;
		}
		if (hit.part == FRAME_PART_EDGE) {
			*view_out = view;
			return hit;
		}
	}
	return none;
}

static void set_cursor(struct seat *seat, uint32_t edges) {
	wlr_xcursor_manager_set_cursor_image(seat->xcursor_manager,
		frame_cursor_name(edges), seat->cursor);
}

/* A drag or a popup's grab decides where the pointer goes itself. */
static bool seat_grabbed(struct seat *seat) {
	struct wlr_seat_pointer_state *state = &seat->wlr_seat->pointer_state;
	return state->grab != state->default_grab;
}

bool frame_input_motion(struct seat *seat) {
	if (seat->frame_pressed) {
		return true; /* the frame keeps the pointer until the release */
	}
	if (seat_grabbed(seat)) {
		return false;
	}
	struct view *view;
	struct frame_hit hit = frame_at(seat, &view);
	if (!view) {
		return false;
	}
	set_cursor(seat, hit.part == FRAME_PART_EDGE ? hit.edges : 0);
	wlr_seat_pointer_notify_clear_focus(seat->wlr_seat);
	return true;
}

/* Holds the button until its release, which frame_input_release takes. */
static void hold(struct seat *seat, struct view *view, enum frame_part part,
		uint32_t button) {
	seat->frame_pressed = true;
	seat->frame_view = view;
	seat->frame_part = part;
	seat->frame_button = button;
}

static void press_title(struct seat *seat, struct view *view, uint32_t time_msec,
		uint32_t button) {
	double x = seat->cursor->x, y = seat->cursor->y;
	if (frame_click_is_double(&seat->frame_last_click, view->id, time_msec, x, y)) {
		seat->frame_last_click.valid = false;
		hold(seat, view, FRAME_PART_TITLE, button);
		view_set_maximized(view, !view->maximized);
		return;
	}
	seat->frame_last_click = (struct frame_click){
		.valid = true, .view_id = view->id, .time_msec = time_msec, .x = x, .y = y,
	};
	if (view->maximized_axes) {
		/* A maximized window stays put, as in openbox; so does one axis. */
		hold(seat, view, FRAME_PART_TITLE, button);
		return;
	}
	seat_begin_interactive(seat, view, CURSOR_MOVE, 0);
}

bool frame_input_press(struct seat *seat, uint32_t time_msec, uint32_t button) {
	/* Only a first press: a button held in a client keeps its grab. */
	if (button != BTN_LEFT || seat->frame_pressed || seat->mode != CURSOR_PASSTHROUGH ||
			seat->wlr_seat->pointer_state.button_count > 0 || seat_grabbed(seat)) {
		return false;
	}
	struct view *view;
	struct frame_hit hit = frame_at(seat, &view);
	if (!view) {
		return false;
	}
	view_focus(view);
	switch (hit.part) {
	case FRAME_PART_EDGE:
		seat_begin_interactive(seat, view, CURSOR_RESIZE, hit.edges);
		break;
	case FRAME_PART_TITLE:
		press_title(seat, view, time_msec, button);
		break;
	default:
		hold(seat, view, hit.part, button);
		break;
	}
	return true;
}

static void act(struct view *view, enum frame_part part) {
	switch (part) {
	case FRAME_PART_CLOSE:
		view_close(view);
		break;
	case FRAME_PART_MAXIMIZE:
		view_set_maximized(view, !view->maximized);
		break;
	case FRAME_PART_MINIMIZE:
		view_set_minimized(view, true);
		break;
	default:
		break;
	}
}

bool frame_input_release(struct seat *seat, uint32_t button) {
	if (!seat->frame_pressed || button != seat->frame_button) {
		return false;
	}
	struct view *pressed = seat->frame_view;
	enum frame_part part = seat->frame_part;
	seat->frame_pressed = false;
	seat->frame_view = NULL;
	struct view *view;
	struct frame_hit hit = frame_at(seat, &view);
	/* As in every window manager: the button acts if released on itself. */
	if (pressed && view == pressed && hit.part == part) {
		act(view, part);
	}
	return true;
}

void frame_input_view_gone(struct seat *seat, struct view *view) {
	if (seat->frame_view == view) {
		seat->frame_view = NULL;
	}
}
