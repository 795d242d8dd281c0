/* SPDX-License-Identifier: MIT */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <wlr/types/wlr_foreign_toplevel_management_v1.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/util/log.h>
#include "compositor/layer_shell.h"
#include "compositor/output.h"
#include "compositor/placement.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/switcher.h"
#include "compositor/view.h"

static bool view_is_kiosk(const struct view *view) {
	return view->server->options->kiosk;
}

static int frame_top(const struct view *view) {
	return view->decoration.enabled ?
		DECORATION_TITLE_HEIGHT + DECORATION_BORDER : 0;
}

static int frame_side(const struct view *view) {
	return view->decoration.enabled ? DECORATION_BORDER : 0;
}

void view_frame_box(const struct view *view, struct wlr_box *box) {
	*box = view->geometry;
	box->x -= frame_side(view);
	box->y -= frame_top(view);
	box->width += 2 * frame_side(view);
	box->height += frame_top(view) + frame_side(view);
}

static struct placement_box to_placement(const struct wlr_box *box) {
	return (struct placement_box){box->x, box->y, box->width, box->height};
}

static void redraw_decoration(struct view *view) {
	decoration_update(&view->decoration, view->geometry.width, view->geometry.height,
		view->impl->get_title(view), view->server->focused_view == view,
		view_wants_attention(view), view->maximized);
}

/* Shown in the title bar, and told to the client (X: _NET_WM_STATE). */
static void attention_changed(struct view *view) {
	if (!view->mapped) {
		return;
	}
	redraw_decoration(view);
	if (view->impl->attention_changed) {
		view->impl->attention_changed(view);
	}
}

/* The output the view is mostly on: the one under its center. */
static struct output *view_output(struct view *view) {
	struct output *output = output_at(view->server,
		view->geometry.x + view->geometry.width / 2.0,
		view->geometry.y + view->geometry.height / 2.0);
	return output ? output : output_focused(view->server);
}

static void handle_toplevel_request_activate(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, toplevel_request_activate);
	view_focus(view);
}

static void handle_toplevel_request_close(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, toplevel_request_close);
	view_close(view);
}

static void handle_toplevel_request_maximize(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, toplevel_request_maximize);
	struct wlr_foreign_toplevel_handle_v1_maximized_event *event = data;
	view_set_maximized(view, event->maximized);
}

static void handle_toplevel_request_fullscreen(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, toplevel_request_fullscreen);
	struct wlr_foreign_toplevel_handle_v1_fullscreen_event *event = data;
	view_set_fullscreen(view, event->fullscreen);
}

static void handle_toplevel_request_minimize(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, toplevel_request_minimize);
	struct wlr_foreign_toplevel_handle_v1_minimized_event *event = data;
	view_set_minimized(view, event->minimized);
}

static void toplevel_handle_create(struct view *view) {
	if (view->skip_taskbar || view->toplevel_handle) {
		return;
	}
	struct wlr_foreign_toplevel_handle_v1 *handle =
		wlr_foreign_toplevel_handle_v1_create(view->server->foreign_toplevels);
	if (!handle) {
		return;
	}
	view->toplevel_handle = handle;
	const char *title = view->impl->get_title(view);
	const char *app_id = view->impl->get_app_id(view);
	wlr_foreign_toplevel_handle_v1_set_title(handle, title ? title : "");
	wlr_foreign_toplevel_handle_v1_set_app_id(handle, app_id ? app_id : "");
	wlr_foreign_toplevel_handle_v1_set_minimized(handle, view->minimized);
	wlr_foreign_toplevel_handle_v1_set_maximized(handle, view->maximized);
	wlr_foreign_toplevel_handle_v1_set_fullscreen(handle, view->fullscreen);
	wlr_foreign_toplevel_handle_v1_set_activated(handle,
		view->server->focused_view == view);
	view->toplevel_request_activate.notify = handle_toplevel_request_activate;
	wl_signal_add(&handle->events.request_activate, &view->toplevel_request_activate);
	view->toplevel_request_close.notify = handle_toplevel_request_close;
	wl_signal_add(&handle->events.request_close, &view->toplevel_request_close);
	view->toplevel_request_maximize.notify = handle_toplevel_request_maximize;
	wl_signal_add(&handle->events.request_maximize, &view->toplevel_request_maximize);
	view->toplevel_request_fullscreen.notify = handle_toplevel_request_fullscreen;
	wl_signal_add(&handle->events.request_fullscreen,
		&view->toplevel_request_fullscreen);
	view->toplevel_request_minimize.notify = handle_toplevel_request_minimize;
	wl_signal_add(&handle->events.request_minimize, &view->toplevel_request_minimize);
}

static void toplevel_handle_destroy(struct view *view) {
	if (!view->toplevel_handle) {
		return;
	}
	wl_list_remove(&view->toplevel_request_activate.link);
	wl_list_remove(&view->toplevel_request_close.link);
	wl_list_remove(&view->toplevel_request_maximize.link);
	wl_list_remove(&view->toplevel_request_fullscreen.link);
	wl_list_remove(&view->toplevel_request_minimize.link);
	wlr_foreign_toplevel_handle_v1_destroy(view->toplevel_handle);
	view->toplevel_handle = NULL;
}

void view_init(struct view *view, struct server *server, const struct view_impl *impl,
		struct wlr_surface *surface) {
	view->server = server;
	view->impl = impl;
	view->surface = surface;
	view->id = ++server->next_view_id;
	view->band = VIEW_BAND_NORMAL;
	view->scene_tree = wlr_scene_tree_create(&server->view_bands[VIEW_BAND_NORMAL]->node);
	view->scene_tree->node.data = view;
	wlr_scene_node_set_enabled(&view->scene_tree->node, false);
	decoration_init(&view->decoration, view->scene_tree);
	wl_list_insert(&server->views, &view->link);
}

void view_destroy(struct view *view) {
	if (!view) {
		return;
	}
	if (view->mapped) {
		view_unmap(view);
	}
	wl_list_remove(&view->link);
	decoration_finish(&view->decoration);
	wlr_scene_node_destroy(&view->scene_tree->node);
	view->impl->destroy(view);
}

static void place_new_view(struct view *view, bool has_position, int x, int y) {
	/*
	 * A window that asks for a place goes to the output there, as under
	 * an X window manager; others open where the person is working.
	 */
	struct output *output = has_position ? output_at(view->server,
		x + view->geometry.width / 2.0, y + view->geometry.height / 2.0) : NULL;
	if (!output) {
		output = output_focused(view->server);
	}
	if (!output) {
		return;
	}
	struct placement_box area = to_placement(&output->usable_area);
	struct view *parent = view->impl->get_parent ? view->impl->get_parent(view) : NULL;
	struct placement_box placed;
	if (view->placement == VIEW_PLACE_AS_REQUESTED) {
		/* Docks, menus: the client knows where it goes. */
		view->geometry.x = x;
		view->geometry.y = y;
		return;
	}
	if (view->placement == VIEW_PLACE_CORNER) {
		placed = placement_corner(&area, view->geometry.width, view->geometry.height,
			frame_top(view), frame_side(view));
	} else if (view->placement == VIEW_PLACE_CENTER && !(parent && parent->mapped)) {
		placed = placement_new_window(&area, view->geometry.width,
			view->geometry.height, frame_top(view), frame_side(view), NULL, 0);
	} else if (parent && parent->mapped) {
		struct placement_box parent_box = to_placement(&parent->geometry);
		placed = placement_center_over(&area, &parent_box, view->geometry.width,
			view->geometry.height, frame_top(view), frame_side(view));
	} else {
		placement_apply_gravity(view->requested_gravity, view->geometry.width,
			view->geometry.height, view->requested_border, frame_top(view),
			frame_side(view), &x, &y);
		struct placement_box requested = {x, y, 0, 0};
		placed = placement_new_window(&area, view->geometry.width,
			view->geometry.height, frame_top(view), frame_side(view),
			has_position ? &requested : NULL, view->server->cascade++);
	}
	view->geometry.x = placed.x;
	view->geometry.y = placed.y;
}

void view_map(struct view *view, struct wlr_scene_node *content, int width,
		int height, bool has_position, int requested_x, int requested_y) {
	view->content = content;
	view->mapped = true;
	view->geometry.width = width;
	view->geometry.height = height;
	decoration_set_enabled(&view->decoration, !view_is_kiosk(view) &&
		!view->impl->wants_client_decorations(view));
	toplevel_handle_create(view);

	struct view *parent = view->impl->get_parent ? view->impl->get_parent(view) : NULL;
	if (!view->placed) {
		place_new_view(view, has_position, requested_x, requested_y);
		view->placed = true;
	}
	wlr_scene_node_set_position(&view->scene_tree->node, view->geometry.x,
		view->geometry.y);
	wlr_scene_node_set_enabled(&view->scene_tree->node, !view->minimized);
	redraw_decoration(view);

	if (view_is_kiosk(view) && !parent) {
		view_set_fullscreen(view, true);
	} else {
		view->impl->configure(view, &view->geometry);
	}
	view_raise(view); /* into its band */
	if (!view->minimized && !view->no_focus_on_map) {
		view_focus(view);
	}
	if (view->has_strut) {
		view_set_strut(view, &view->strut);
	}
	/* Its first frame is the output's next one; bench/run-startup reads this. */
	wlr_log(WLR_INFO, "Window mapped: %dx%d at %d,%d", view->geometry.width,
		view->geometry.height, view->geometry.x, view->geometry.y);
}

static bool accepts_focus(struct view *view) {
	return !view->impl->accepts_focus || view->impl->accepts_focus(view);
}

/* Where focus goes when the focused view leaves: the one focused before it. */
static struct view *previous_focusable(struct server *server, struct view *except) {
	struct view *view, *best = NULL;
	wl_list_for_each(view, &server->views, link) {
		if (view != except && view->mapped && !view->minimized && accepts_focus(view) &&
				(!best || view->focus_serial > best->focus_serial)) {
			best = view;
		}
	}
	return best;
}

static void arrange_struts(struct server *server) {
	struct output *output;
	wl_list_for_each(output, &server->outputs, link) {
		layer_shell_arrange(output);
	}
}

void view_unmap(struct view *view) {
	view->mapped = false;
	if (view->has_strut) {
		arrange_struts(view->server);
	}
	wlr_scene_node_set_enabled(&view->scene_tree->node, false);
	toplevel_handle_destroy(view);
	seat_view_gone(view->server->seat, view);
	switcher_view_gone(view->server->switcher, view);
	if (view->server->focused_view == view) {
		view->server->focused_view = NULL;
		struct view *next = previous_focusable(view->server, view);
		if (next) {
			view_focus(next);
		} else {
			seat_focus_surface(view->server->seat, NULL);
		}
	}
}

void view_update_size(struct view *view, int width, int height) {
	if (view->geometry.width == width && view->geometry.height == height) {
		return;
	}
	view->geometry.width = width;
	view->geometry.height = height;
	if (view->mapped) {
		redraw_decoration(view);
	}
}

void view_update_title(struct view *view) {
	const char *title = view->impl->get_title(view);
	if (view->toplevel_handle) {
		wlr_foreign_toplevel_handle_v1_set_title(view->toplevel_handle,
			title ? title : "");
	}
	if (view->mapped) {
		redraw_decoration(view);
	}
}

void view_update_app_id(struct view *view) {
	const char *app_id = view->impl->get_app_id(view);
	if (view->toplevel_handle) {
		wlr_foreign_toplevel_handle_v1_set_app_id(view->toplevel_handle,
			app_id ? app_id : "");
	}
}

/*
 * Fullscreen windows cover panels, so they live in the top layer; the
 * others in their band. A dialog lives in its parent's layer or band when
 * that is higher, or a fullscreen or always-on-top parent would hide it.
 */
#define STACK_RANK_FULLSCREEN VIEW_BAND_COUNT

static int stack_rank(struct view *view) {
	int rank = view->band;
	/* Bounded: X clients can make WM_TRANSIENT_FOR loops. */
	for (int depth = 0; view && depth < 16; depth++) {
		if (view->fullscreen) {
			return STACK_RANK_FULLSCREEN;
		}
		if ((int)view->band > rank) {
			rank = view->band;
		}
		struct view *parent = view->impl->get_parent ?
			view->impl->get_parent(view) : NULL;
		view = parent && parent->mapped ? parent : NULL;
	}
	return rank;
}

static struct wlr_scene_node *stack_node(struct server *server, int rank) {
	return rank == STACK_RANK_FULLSCREEN ? &server->layers[LAYER_TOP]->node :
		&server->view_bands[rank]->node;
}

/* To the top of its layer or band, in the scene and in server.views. */
static void raise_one(struct view *view) {
	struct server *server = view->server;
	int rank = stack_rank(view);
	wlr_scene_node_reparent(&view->scene_tree->node, stack_node(server, rank));
	wlr_scene_node_raise_to_top(&view->scene_tree->node);
	wl_list_remove(&view->link);
	struct view *other;
	wl_list_for_each(other, &server->views, link) {
		if (stack_rank(other) <= rank) {
			wl_list_insert(other->link.prev, &view->link);
			return;
		}
	}
	wl_list_insert(server->views.prev, &view->link);
}

void view_raise(struct view *view) {
	raise_one(view);
	/* Dialogs stay above the window they belong to. */
	struct view *child, *tmp;
	wl_list_for_each_safe(child, tmp, &view->server->views, link) {
		if (child != view && child->mapped && child->impl->get_parent &&
				child->impl->get_parent(child) == view) {
			raise_one(child);
		}
	}
	wl_signal_emit(&view->server->events_stacking_changed, NULL);
}

void view_focus(struct view *view) {
	struct server *server = view->server;
	if (!view->mapped) {
		return;
	}
	if (view->minimized) {
		view_set_minimized(view, false);
	}
	view_raise(view);
	if (!accepts_focus(view)) {
		return; /* raised, but the keyboard stays where it was */
	}
	if (view->attention_requested) {
		view->attention_requested = false;
		attention_changed(view);
	}
	view->focus_serial = ++server->next_focus_serial;
	struct view *previous = server->focused_view;
	if (previous == view) {
		seat_focus_surface(server->seat, view->surface);
		return;
	}
	server->focused_view = view;
	if (previous) {
		previous->impl->set_activated(previous, false);
		if (previous->toplevel_handle) {
			wlr_foreign_toplevel_handle_v1_set_activated(previous->toplevel_handle,
				false);
		}
		redraw_decoration(previous);
	}
	view->impl->set_activated(view, true);
	if (view->toplevel_handle) {
		wlr_foreign_toplevel_handle_v1_set_activated(view->toplevel_handle, true);
	}
	redraw_decoration(view);
	seat_focus_surface(server->seat, view->surface);
	/* Activation may have restacked the client's own windows (X). */
	wl_signal_emit(&server->events_stacking_changed, NULL);
}

void view_set_band(struct view *view, enum view_band band) {
	if (view->band == band) {
		return;
	}
	view->band = band;
	view_raise(view);
}

void view_set_skip_taskbar(struct view *view, bool skip_taskbar) {
	if (view->skip_taskbar == skip_taskbar) {
		return;
	}
	view->skip_taskbar = skip_taskbar;
	if (skip_taskbar) {
		toplevel_handle_destroy(view);
	} else if (view->mapped) {
		toplevel_handle_create(view);
	}
}

void view_move(struct view *view, int x, int y) {
	struct wlr_box box = view->geometry;
	box.x = x;
	box.y = y;
	view_move_resize(view, &box);
}

/*
 * Applies the client's size constraints. When only the left (top) edge
 * moved, as in a resize from that edge, the right (bottom) edge stays put.
 */
static void constrain_box(struct view *view, struct wlr_box *box) {
	if (!view->impl->constrain_size || view->fullscreen) {
		return;
	}
	int width = box->width, height = box->height;
	view->impl->constrain_size(view, &width, &height);
	const struct wlr_box *old = &view->geometry;
	if (box->x != old->x && box->x + box->width == old->x + old->width) {
		box->x += box->width - width;
	}
	if (box->y != old->y && box->y + box->height == old->y + old->height) {
		box->y += box->height - height;
	}
	box->width = width;
	box->height = height;
}

void view_move_resize(struct view *view, const struct wlr_box *geometry) {
	struct wlr_box box = *geometry;
	constrain_box(view, &box);
	struct view_moved_event moved = { .view = view };
	view_frame_box(view, &moved.from);
	bool only_moved = view->mapped && box.width == view->geometry.width &&
		box.height == view->geometry.height &&
		(box.x != view->geometry.x || box.y != view->geometry.y);
	view->geometry.x = box.x;
	view->geometry.y = box.y;
	wlr_scene_node_set_position(&view->scene_tree->node, box.x, box.y);
	if (only_moved) {
		view_frame_box(view, &moved.to);
		wl_signal_emit(&view->server->events_view_moved, &moved);
	}
	view->impl->configure(view, &box);
}

static struct wlr_box from_placement(struct placement_box box) {
	return (struct wlr_box){box.x, box.y, box.width, box.height};
}

/* Copies the axes of from into box. */
static void take_axes(struct wlr_box *box, const struct wlr_box *from, unsigned axes) {
	if (axes & PLACEMENT_AXIS_HORZ) {
		box->x = from->x;
		box->width = from->width;
	}
	if (axes & PLACEMENT_AXIS_VERT) {
		box->y = from->y;
		box->height = from->height;
	}
}

/* Fullscreen or maximized views fill their output; free is kept on free axes. */
static void fit_to_output_from(struct view *view, const struct wlr_box *free) {
	struct output *output = view_output(view);
	if (!output) {
		return;
	}
	struct wlr_box box;
	if (view->fullscreen) {
		output_layout_box(output, &box);
	} else if (view->maximized_axes) {
		struct placement_box area = to_placement(&output->usable_area);
		struct placement_box keep = to_placement(free);
		box = from_placement(placement_maximize(&area, &keep, view->maximized_axes,
			frame_top(view), frame_side(view)));
	} else {
		return;
	}
	view_move_resize(view, &box);
}

static void fit_to_output(struct view *view) {
	fit_to_output_from(view, &view->geometry);
}

void view_keep_maximized_axes(const struct view *view, struct wlr_box *box) {
	take_axes(box, &view->geometry, view->maximized_axes);
}

void view_set_maximized_axes(struct view *view, unsigned axes) {
	axes &= PLACEMENT_AXES_BOTH;
	unsigned old = view->maximized_axes;
	if (old == axes || view_is_kiosk(view)) {
		view->impl->set_maximized(view, old);
		return;
	}
	if (!view->fullscreen) {
		take_axes(&view->restore, &view->geometry, axes & ~old);
	}
	view->maximized_axes = axes;
	view->maximized = axes == PLACEMENT_AXES_BOTH;
	view->impl->set_maximized(view, axes);
	if (view->toplevel_handle) {
		wlr_foreign_toplevel_handle_v1_set_maximized(view->toplevel_handle,
			view->maximized);
	}
	redraw_decoration(view); /* maximize becomes restore */
	if (view->fullscreen) {
		return;
	}
	/* Axes let go of return to where they were; the others stay. */
	struct wlr_box free = view->geometry;
	take_axes(&free, &view->restore, old & ~axes);
	if (axes) {
		fit_to_output_from(view, &free);
	} else {
		view_move_resize(view, &free);
	}
}

void view_set_maximized(struct view *view, bool maximized) {
	view_set_maximized_axes(view, maximized ? PLACEMENT_AXES_BOTH : 0);
}

void view_set_fullscreen(struct view *view, bool fullscreen) {
	if (view->fullscreen == fullscreen ||
			(view_is_kiosk(view) && !fullscreen)) {
		view->impl->set_fullscreen(view, view->fullscreen);
		return;
	}
	if (fullscreen) {
		/* A maximized axis keeps the geometry saved when it was maximized. */
		take_axes(&view->restore, &view->geometry,
			PLACEMENT_AXES_BOTH & ~view->maximized_axes);
	}
	view->fullscreen = fullscreen;
	view->impl->set_fullscreen(view, fullscreen);
	if (view->toplevel_handle) {
		wlr_foreign_toplevel_handle_v1_set_fullscreen(view->toplevel_handle,
			fullscreen);
	}
	decoration_set_enabled(&view->decoration, !fullscreen && !view_is_kiosk(view) &&
		!view->impl->wants_client_decorations(view));
	if (fullscreen) {
		fit_to_output(view);
	} else if (view->maximized_axes) {
		fit_to_output_from(view, &view->restore);
	} else {
		view_move_resize(view, &view->restore);
	}
	view_raise(view); /* its dialogs follow it into the new layer */
	redraw_decoration(view);
}

static bool is_child_of(struct view *child, struct view *parent) {
	return child != parent && child->impl->get_parent &&
		child->impl->get_parent(child) == parent;
}

/*
 * Transients follow their parent: minimized and restored with it. Each
 * change restacks server.views, so the walk starts over after each one.
 */
static void set_children_minimized(struct view *view, bool minimized) {
	bool changed = true;
	while (changed) {
		changed = false;
		struct view *child;
		wl_list_for_each(child, &view->server->views, link) {
			if (child->mapped && child->minimized != minimized &&
					is_child_of(child, view)) {
				view_set_minimized(child, minimized);
				changed = true;
				break;
			}
		}
	}
}

void view_set_minimized(struct view *view, bool minimized) {
	if (view->minimized == minimized) {
		return;
	}
	if (minimized) {
		/* Children first, so focus does not pass to one about to go. */
		set_children_minimized(view, true);
	}
	view->minimized = minimized;
	view->impl->set_minimized(view, minimized);
	if (view->toplevel_handle) {
		wlr_foreign_toplevel_handle_v1_set_minimized(view->toplevel_handle, minimized);
	}
	if (!view->mapped) {
		return;
	}
	wlr_scene_node_set_enabled(&view->scene_tree->node, !minimized);
	if (minimized && view->server->focused_view == view) {
		view->impl->set_activated(view, false);
		view->server->focused_view = NULL;
		struct view *next = previous_focusable(view->server, view);
		if (next) {
			view_focus(next);
		} else {
			seat_focus_surface(view->server->seat, NULL);
		}
	} else if (!minimized) {
		view_focus(view);
		set_children_minimized(view, false);
	}
}

bool view_wants_attention(const struct view *view) {
	return view->urgent || view->attention_requested;
}

void view_set_urgent(struct view *view, bool urgent) {
	if (view->urgent == urgent) {
		return;
	}
	view->urgent = urgent;
	attention_changed(view);
}

void view_request_attention(struct view *view, bool attention) {
	if ((attention && view->server->focused_view == view) ||
			view->attention_requested == attention) {
		return;
	}
	view->attention_requested = attention;
	attention_changed(view);
}

void view_set_not_responding(struct view *view, bool not_responding) {
	if (view->not_responding == not_responding) {
		return;
	}
	view->not_responding = not_responding;
	view_update_title(view);
}

void view_set_strut(struct view *view, const struct placement_strut *strut) {
	view->has_strut = strut != NULL;
	if (strut) {
		view->strut = *strut;
	}
	if (view->mapped || !strut) {
		arrange_struts(view->server);
	}
}

void view_apply_struts(struct server *server, const struct wlr_box *output_box,
		struct placement_box *usable) {
	struct wlr_box *layout = wlr_output_layout_get_box(server->output_layout, NULL);
	if (!layout || wlr_box_empty(layout)) {
		return;
	}
	struct placement_box root = to_placement(layout);
	struct placement_box output = to_placement(output_box);
	struct view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->mapped && view->has_strut) {
			placement_apply_strut(&root, &output, &view->strut, usable);
		}
	}
}

void view_close(struct view *view) {
	view->impl->close(view);
}

void view_arrange_all(struct server *server) {
	struct view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->mapped) {
			fit_to_output(view);
		}
	}
	/*
	 * Usable areas changed (a panel came or went) or outputs did: the X
	 * work area follows. Listeners must not call view_arrange_all.
	 */
	wl_signal_emit(&server->events_outputs_changed, NULL);
}

/* Whether any output shows part of box. */
static bool box_on_some_output(struct server *server, const struct wlr_box *box) {
	struct output *output;
	wl_list_for_each(output, &server->outputs, link) {
		struct wlr_box output_box, both;
		output_layout_box(output, &output_box);
		if (wlr_box_intersection(&both, &output_box, box)) {
			return true;
		}
	}
	return false;
}

void view_gather_offscreen(struct server *server) {
	struct output *target = output_focused(server);
	if (!target) {
		return;
	}
	struct view *view;
	wl_list_for_each(view, &server->views, link) {
		if (!view->mapped || box_on_some_output(server, &view->geometry)) {
			continue;
		}
		if (view->fullscreen || view->maximized) {
			fit_to_output(view);
			continue;
		}
		/* Centred in what the output leaves usable, its top-left corner visible. */
		const struct wlr_box *area = &target->usable_area;
		int x = area->x + (area->width - view->geometry.width) / 2;
		int y = area->y + (area->height - view->geometry.height) / 2;
		view_move(view, x > area->x ? x : area->x, y > area->y ? y : area->y);
		fit_to_output(view); /* an axis maximized alone spans the new output */
	}
}

struct view *view_from_id(struct server *server, uint64_t id) {
	struct view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->id == id && view->mapped) {
			return view;
		}
	}
	return NULL;
}

struct view *view_focused(struct server *server) {
	return server->focused_view;
}

struct view *view_from_node(struct wlr_scene_node *node) {
	for (; node; node = node->parent) {
		if (node->type == WLR_SCENE_NODE_TREE && node->data) {
			return node->data;
		}
	}
	return NULL;
}

const char *view_kind_name(const struct view *view) {
	return view->impl->kind == VIEW_XWAYLAND ? "x11" : "wayland";
}
