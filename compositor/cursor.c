/* SPDX-License-Identifier: MIT */
#include <linux/input-event-codes.h>
#include <math.h>
#include <stdlib.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_idle.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_pointer_constraints_v1.h>
#include <wlr/types/wlr_relative_pointer_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/edges.h>
#include <wlr/util/region.h>
#include "compositor/cursor.h"
#include "compositor/frame_input.h"
#include "compositor/layer_shell.h"
#include "compositor/seat.h"
#include "compositor/seat_grab.h"
#include "compositor/server.h"
#include "compositor/view.h"

#define MIN_VIEW_SIZE 32

/*
 * The node under lx, ly, the layers from the top. While a drag runs, the
 * override-redirect X windows are passed over: none is a place to drop,
 * and an X app's drag icon is one of them, following the pointer a step
 * behind (X sources likewise look through their own icon).
 */
static struct wlr_scene_node *node_at(struct seat *seat, double lx, double ly,
		double *sx, double *sy) {
	bool dragging = seat->wlr_seat->drag != NULL;
	for (int layer = LAYER_COUNT - 1; layer >= 0; layer--) {
		if (dragging && layer == LAYER_UNMANAGED) {
			continue;
		}
		struct wlr_scene_node *node = wlr_scene_node_at(
			&seat->server->layers[layer]->node, lx, ly, sx, sy);
		if (node) {
			return node;
		}
	}
	return NULL;
}

static struct wlr_surface *surface_at(struct seat *seat, double lx, double ly,
		double *sx, double *sy, struct wlr_scene_node **node_out) {
	struct wlr_scene_node *node = node_at(seat, lx, ly, sx, sy);
	if (node_out) {
		*node_out = node;
	}
	if (!node || node->type != WLR_SCENE_NODE_SURFACE) {
		return NULL;
	}
	return wlr_scene_surface_from_node(node)->surface;
}

struct wlr_surface *seat_surface_at(struct seat *seat, double lx, double ly,
		double *sx, double *sy) {
	return surface_at(seat, lx, ly, sx, sy, NULL);
}

/*
 * While a button is held, the surface it was pressed on keeps the pointer
 * (the implicit grab of every X server and Wayland compositor): a
 * scrollbar, a text selection or a drag that leaves its window goes on,
 * and the release goes where the press went. Other seat grabs (a drag, a
 * popup's) decide focus themselves.
 */
static bool implicit_grab_motion(struct seat *seat, uint32_t time_msec) {
	struct wlr_seat_pointer_state *state = &seat->wlr_seat->pointer_state;
	if (!seat->implicit_grab || state->button_count == 0 || !state->focused_surface ||
			state->grab != state->default_grab) {
		seat->implicit_grab = false;
		return false;
	}
	wlr_seat_pointer_notify_motion(seat->wlr_seat, time_msec,
		seat->cursor->x - seat->implicit_grab_x, seat->cursor->y - seat->implicit_grab_y);
	return true;
}

/*
 * Offers a pointer event to the seat's grabs: true when one took it. No
 * client has the pointer under a modal grab: oriel shows its cursor.
 */
static bool grab_pointer(struct seat *seat, enum seat_grab_event_type type,
		uint32_t button, bool pressed) {
	struct seat_grab *top = seat_grabs_top(&seat->grabs);
	if (top && top->impl->modal && type == SEAT_GRAB_POINTER_MOTION) {
		wlr_seat_pointer_notify_clear_focus(seat->wlr_seat);
		wlr_xcursor_manager_set_cursor_image(seat->xcursor_manager,
			top->impl->cursor ? top->impl->cursor : "left_ptr", seat->cursor);
	}
	struct seat_grab_event event = {
		.type = type,
		.lx = seat->cursor->x,
		.ly = seat->cursor->y,
		.button = button,
		.pressed = pressed,
	};
	return seat_grabs_offer_active(&seat->grabs, &event) ||
		seat_grabs_offer_listeners(&seat->grabs, &event);
}

void seat_update_pointer_focus(struct seat *seat, uint32_t time_msec) {
	if (grab_pointer(seat, SEAT_GRAB_POINTER_MOTION, 0, false)) {
		return;
	}
	if (implicit_grab_motion(seat, time_msec)) {
		return;
	}
	if (frame_input_motion(seat)) {
		return;
	}
	double sx, sy;
	struct wlr_surface *surface = surface_at(seat, seat->cursor->x, seat->cursor->y,
		&sx, &sy, NULL);
	if (!surface) {
		wlr_xcursor_manager_set_cursor_image(seat->xcursor_manager, "left_ptr",
			seat->cursor);
		wlr_seat_pointer_notify_clear_focus(seat->wlr_seat);
		return;
	}
	wlr_seat_pointer_notify_enter(seat->wlr_seat, surface, sx, sy);
	wlr_seat_pointer_notify_motion(seat->wlr_seat, time_msec, sx, sy);
}

static void process_grab_motion(struct seat *seat) {
	struct view *view = seat->grabbed_view;
	/* Rounded: absolute pointer positions come back with float error. */
	int dx = (int)lround(seat->cursor->x - seat->grab_x);
	int dy = (int)lround(seat->cursor->y - seat->grab_y);
	struct wlr_box box = seat->grab_geometry;
	if (seat->mode == CURSOR_MOVE) {
		view_move(view, box.x + dx, box.y + dy);
		return;
	}
	if (seat->resize_edges & WLR_EDGE_LEFT) {
		box.x += dx;
		box.width -= dx;
	} else if (seat->resize_edges & WLR_EDGE_RIGHT) {
		box.width += dx;
	}
	if (seat->resize_edges & WLR_EDGE_TOP) {
		box.y += dy;
		box.height -= dy;
	} else if (seat->resize_edges & WLR_EDGE_BOTTOM) {
		box.height += dy;
	}
	if (box.width < MIN_VIEW_SIZE) {
		if (seat->resize_edges & WLR_EDGE_LEFT) {
			box.x -= MIN_VIEW_SIZE - box.width;
		}
		box.width = MIN_VIEW_SIZE;
	}
	if (box.height < MIN_VIEW_SIZE) {
		if (seat->resize_edges & WLR_EDGE_TOP) {
			box.y -= MIN_VIEW_SIZE - box.height;
		}
		box.height = MIN_VIEW_SIZE;
	}
	view_move_resize(view, &box);
}

void seat_pointer_motion(struct seat *seat, uint32_t time_msec) {
	wlr_idle_notify_activity(seat->server->idle, seat->wlr_seat);
	if (grab_pointer(seat, SEAT_GRAB_POINTER_MOTION, 0, false)) {
		return;
	}
	if (seat->mode != CURSOR_PASSTHROUGH && seat->grabbed_view) {
		process_grab_motion(seat);
		return;
	}
	seat_update_pointer_focus(seat, time_msec);
}

static void handle_motion(struct wl_listener *listener, void *data) {
	struct seat *seat = wl_container_of(listener, seat, cursor_motion);
	struct wlr_event_pointer_motion *event = data;
	wlr_relative_pointer_manager_v1_send_relative_motion(seat->relative_pointer,
		seat->wlr_seat, (uint64_t)event->time_msec * 1000, event->delta_x,
		event->delta_y, event->unaccel_dx, event->unaccel_dy);

	struct wlr_pointer_constraint_v1 *constraint = seat->active_constraint;
	if (constraint && constraint->type == WLR_POINTER_CONSTRAINT_V1_LOCKED) {
		return; /* games get relative motion only */
	}
	double dx = event->delta_x, dy = event->delta_y;
	if (constraint && constraint->type == WLR_POINTER_CONSTRAINT_V1_CONFINED) {
		double sx, sy;
		struct wlr_surface *surface = surface_at(seat, seat->cursor->x,
			seat->cursor->y, &sx, &sy, NULL);
		double cx, cy;
		if (surface == constraint->surface && wlr_region_confine(
				&constraint->region, sx, sy, sx + dx, sy + dy, &cx, &cy)) {
			dx = cx - sx;
			dy = cy - sy;
		}
	}
	wlr_cursor_move(seat->cursor, event->device, dx, dy);
	seat_pointer_motion(seat, event->time_msec);
}

static void handle_motion_absolute(struct wl_listener *listener, void *data) {
	struct seat *seat = wl_container_of(listener, seat, cursor_motion_absolute);
	struct wlr_event_pointer_motion_absolute *event = data;
	wlr_cursor_warp_absolute(seat->cursor, event->device, event->x, event->y);
	seat_pointer_motion(seat, event->time_msec);
}

static bool alt_held(struct seat *seat) {
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(seat->wlr_seat);
	return keyboard && (wlr_keyboard_get_modifiers(keyboard) & WLR_MODIFIER_ALT);
}

void seat_begin_interactive(struct seat *seat, struct view *view,
		enum cursor_mode mode, uint32_t edges) {
	if (view->fullscreen || view->server->options->kiosk) {
		return;
	}
	if (view->maximized_axes) {
		view_set_maximized(view, false);
	}
	seat->grabbed_view = view;
	seat->mode = mode;
	seat->grab_x = seat->cursor->x;
	seat->grab_y = seat->cursor->y;
	seat->grab_geometry = view->geometry;
	seat->resize_edges = edges;
}

/* Alt+right-drag resizes from the edges nearest to the pointer. */
static uint32_t nearest_edges(struct view *view, double x, double y) {
	uint32_t edges = 0;
	edges |= x < view->geometry.x + view->geometry.width / 2.0 ?
		WLR_EDGE_LEFT : WLR_EDGE_RIGHT;
	edges |= y < view->geometry.y + view->geometry.height / 2.0 ?
		WLR_EDGE_TOP : WLR_EDGE_BOTTOM;
	return edges;
}

void seat_pointer_button(struct seat *seat, uint32_t time_msec, uint32_t button,
		bool pressed) {
	wlr_idle_notify_activity(seat->server->idle, seat->wlr_seat);
	/* A modal grab (the prompt, the region selector) lets no client see it. */
	if (grab_pointer(seat, SEAT_GRAB_POINTER_BUTTON, button, pressed)) {
		return;
	}
	if (!pressed && frame_input_release(seat, button)) {
		seat_update_pointer_focus(seat, time_msec);
		return;
	}
	if (!pressed && seat->mode != CURSOR_PASSTHROUGH) {
		seat->mode = CURSOR_PASSTHROUGH;
		seat->grabbed_view = NULL;
		seat_update_pointer_focus(seat, time_msec);
		return;
	}
	if (pressed && !alt_held(seat) && frame_input_press(seat, time_msec, button)) {
		return; /* no client sees a press on a frame */
	}
	double sx = 0, sy = 0;
	struct wlr_surface *surface = NULL;
	if (pressed) {
		struct wlr_scene_node *node;
		surface = surface_at(seat, seat->cursor->x, seat->cursor->y, &sx, &sy, &node);
		struct view *view = node ? view_from_node(node) : NULL;
		if (view) {
			if (alt_held(seat) && (button == BTN_LEFT || button == BTN_RIGHT)) {
				view_focus(view);
				seat_begin_interactive(seat, view,
					button == BTN_LEFT ? CURSOR_MOVE : CURSOR_RESIZE,
					nearest_edges(view, seat->cursor->x, seat->cursor->y));
				return; /* the client never sees the grab's button */
			}
			view_focus(view);
		} else if (node) {
			layer_shell_focus_at(seat->server, node);
		}
	}
	struct wlr_seat_pointer_state *state = &seat->wlr_seat->pointer_state;
	bool first_press = pressed && state->button_count == 0;
	wlr_seat_pointer_notify_button(seat->wlr_seat, time_msec, button,
		pressed ? WLR_BUTTON_PRESSED : WLR_BUTTON_RELEASED);
	if (first_press && surface && state->focused_surface == surface) {
		seat->implicit_grab = true;
		seat->implicit_grab_x = seat->cursor->x - sx;
		seat->implicit_grab_y = seat->cursor->y - sy;
	} else if (!pressed && state->button_count == 0 && seat->implicit_grab) {
		/* The grab ends: the surface under the pointer gets it again. */
		seat->implicit_grab = false;
		seat_update_pointer_focus(seat, time_msec);
	}
}

static void handle_button(struct wl_listener *listener, void *data) {
	struct seat *seat = wl_container_of(listener, seat, cursor_button);
	struct wlr_event_pointer_button *event = data;
	seat_pointer_button(seat, event->time_msec, event->button,
		event->state == WLR_BUTTON_PRESSED);
}

static void handle_axis(struct wl_listener *listener, void *data) {
	struct seat *seat = wl_container_of(listener, seat, cursor_axis);
	struct wlr_event_pointer_axis *event = data;
	wlr_idle_notify_activity(seat->server->idle, seat->wlr_seat);
	if (grab_pointer(seat, SEAT_GRAB_POINTER_AXIS, 0, false)) {
		return;
	}
	wlr_seat_pointer_notify_axis(seat->wlr_seat, event->time_msec, event->orientation,
		event->delta, event->delta_discrete, event->source);
}

static void handle_frame(struct wl_listener *listener, void *data) {
	struct seat *seat = wl_container_of(listener, seat, cursor_frame);
	wlr_seat_pointer_notify_frame(seat->wlr_seat);
}

static void handle_request_set_cursor(struct wl_listener *listener, void *data) {
	struct seat *seat = wl_container_of(listener, seat, request_set_cursor);
	struct wlr_seat_pointer_request_set_cursor_event *event = data;
	if (event->seat_client == seat->wlr_seat->pointer_state.focused_client) {
		wlr_cursor_set_surface(seat->cursor, event->surface, event->hotspot_x,
			event->hotspot_y);
	}
}

/* Pointer constraints: only the focused surface's constraint is active. */
struct constraint {
	struct seat *seat;
	struct wlr_pointer_constraint_v1 *wlr_constraint;
	struct wl_listener destroy;
};

static void deactivate_constraint(struct seat *seat) {
	if (seat->active_constraint) {
		wlr_pointer_constraint_v1_send_deactivated(seat->active_constraint);
		seat->active_constraint = NULL;
	}
}

void cursor_constraint_check(struct seat *seat, struct wlr_surface *surface) {
	struct wlr_pointer_constraint_v1 *constraint = surface ?
		wlr_pointer_constraints_v1_constraint_for_surface(
			seat->pointer_constraints, surface, seat->wlr_seat) : NULL;
	if (constraint == seat->active_constraint) {
		return;
	}
	deactivate_constraint(seat);
	if (constraint) {
		seat->active_constraint = constraint;
		wlr_pointer_constraint_v1_send_activated(constraint);
	}
}

static void handle_constraint_destroy(struct wl_listener *listener, void *data) {
	struct constraint *constraint = wl_container_of(listener, constraint, destroy);
	if (constraint->seat->active_constraint == constraint->wlr_constraint) {
		constraint->seat->active_constraint = NULL;
	}
	wl_list_remove(&constraint->destroy.link);
	free(constraint);
}

static void handle_new_constraint(struct wl_listener *listener, void *data) {
	struct seat *seat = wl_container_of(listener, seat, new_constraint);
	struct wlr_pointer_constraint_v1 *wlr_constraint = data;
	struct constraint *constraint = calloc(1, sizeof(*constraint));
	if (!constraint) {
		return;
	}
	constraint->seat = seat;
	constraint->wlr_constraint = wlr_constraint;
	constraint->destroy.notify = handle_constraint_destroy;
	wl_signal_add(&wlr_constraint->events.destroy, &constraint->destroy);
	if (seat->wlr_seat->keyboard_state.focused_surface == wlr_constraint->surface) {
		cursor_constraint_check(seat, wlr_constraint->surface);
	}
}

void cursor_init(struct seat *seat) {
	struct server *server = seat->server;
	const struct oriel_config *config = &server->options->config;
	seat->cursor = wlr_cursor_create();
	wlr_cursor_attach_output_layout(seat->cursor, server->output_layout);
	seat->xcursor_manager = wlr_xcursor_manager_create(config->cursor_theme,
		config->cursor_size > 0 ? config->cursor_size : 24);
	wlr_xcursor_manager_load(seat->xcursor_manager, 1);

	seat->relative_pointer = wlr_relative_pointer_manager_v1_create(server->display);
	seat->pointer_constraints = wlr_pointer_constraints_v1_create(server->display);
	seat->new_constraint.notify = handle_new_constraint;
	wl_signal_add(&seat->pointer_constraints->events.new_constraint,
		&seat->new_constraint);

	seat->cursor_motion.notify = handle_motion;
	wl_signal_add(&seat->cursor->events.motion, &seat->cursor_motion);
	seat->cursor_motion_absolute.notify = handle_motion_absolute;
	wl_signal_add(&seat->cursor->events.motion_absolute, &seat->cursor_motion_absolute);
	seat->cursor_button.notify = handle_button;
	wl_signal_add(&seat->cursor->events.button, &seat->cursor_button);
	seat->cursor_axis.notify = handle_axis;
	wl_signal_add(&seat->cursor->events.axis, &seat->cursor_axis);
	seat->cursor_frame.notify = handle_frame;
	wl_signal_add(&seat->cursor->events.frame, &seat->cursor_frame);
	seat->request_set_cursor.notify = handle_request_set_cursor;
	wl_signal_add(&seat->wlr_seat->events.request_set_cursor,
		&seat->request_set_cursor);
}

void cursor_finish(struct seat *seat) {
	wl_list_remove(&seat->cursor_motion.link);
	wl_list_remove(&seat->cursor_motion_absolute.link);
	wl_list_remove(&seat->cursor_button.link);
	wl_list_remove(&seat->cursor_axis.link);
	wl_list_remove(&seat->cursor_frame.link);
	wl_list_remove(&seat->request_set_cursor.link);
	wl_list_remove(&seat->new_constraint.link);
	wlr_xcursor_manager_destroy(seat->xcursor_manager);
	wlr_cursor_destroy(seat->cursor);
}
