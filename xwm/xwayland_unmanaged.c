/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/xwayland.h>
#include "compositor/output_gather.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"
#include "xwm/xwayland.h"

/*
 * An override-redirect X window (menu, tooltip, drag icon): placed where
 * the app put it, never decorated, focused or managed.
 */
struct xwayland_unmanaged {
	struct server *server;
	struct wlr_xwayland_surface *xsurface;
	struct wlr_scene_node *node;

	struct wl_listener destroy;
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener set_geometry;
	struct wl_listener request_configure;
	struct wl_listener set_override_redirect;
};

static void handle_set_geometry(struct wl_listener *listener, void *data) {
	struct xwayland_unmanaged *unmanaged =
		wl_container_of(listener, unmanaged, set_geometry);
	if (unmanaged->node) {
		/* Xwayland commits the window's contents right after the move. */
		output_gather_expect(unmanaged->server);
		wlr_scene_node_set_position(unmanaged->node, unmanaged->xsurface->x,
			unmanaged->xsurface->y);
	}
}

static void handle_request_configure(struct wl_listener *listener, void *data) {
	struct xwayland_unmanaged *unmanaged =
		wl_container_of(listener, unmanaged, request_configure);
	struct wlr_xwayland_surface_configure_event *event = data;
	wlr_xwayland_surface_configure(unmanaged->xsurface, event->x, event->y,
		event->width, event->height);
}

static void handle_map(struct wl_listener *listener, void *data) {
	struct xwayland_unmanaged *unmanaged = wl_container_of(listener, unmanaged, map);
	struct wlr_xwayland_surface *xsurface = unmanaged->xsurface;
	unmanaged->node = wlr_scene_subsurface_tree_create(
		&unmanaged->server->layers[LAYER_UNMANAGED]->node, xsurface->surface);
	wlr_scene_node_set_position(unmanaged->node, xsurface->x, xsurface->y);
	/* Menus that grab the keyboard (e.g. with XSetInputFocus) get it. */
	if (wlr_xwayland_or_surface_wants_focus(xsurface)) {
		seat_focus_surface(unmanaged->server->seat, xsurface->surface);
	}
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct xwayland_unmanaged *unmanaged = wl_container_of(listener, unmanaged, unmap);
	struct server *server = unmanaged->server;
	if (unmanaged->node) {
		wlr_scene_node_destroy(unmanaged->node);
		unmanaged->node = NULL;
	}
	struct wlr_seat *wlr_seat = server->seat->wlr_seat;
	if (wlr_seat->keyboard_state.focused_surface == unmanaged->xsurface->surface) {
		struct view *view = view_focused(server);
		seat_focus_surface(server->seat, view ? view->surface : NULL);
	}
}

static void unmanaged_destroy(struct xwayland_unmanaged *unmanaged) {
	if (unmanaged->node) {
		handle_unmap(&unmanaged->unmap, NULL);
	}
	wl_list_remove(&unmanaged->destroy.link);
	wl_list_remove(&unmanaged->map.link);
	wl_list_remove(&unmanaged->unmap.link);
	wl_list_remove(&unmanaged->set_geometry.link);
	wl_list_remove(&unmanaged->request_configure.link);
	wl_list_remove(&unmanaged->set_override_redirect.link);
	free(unmanaged);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct xwayland_unmanaged *unmanaged = wl_container_of(listener, unmanaged, destroy);
	unmanaged_destroy(unmanaged);
}

/* No longer override-redirect: it becomes a managed view. */
static void handle_set_override_redirect(struct wl_listener *listener, void *data) {
	struct xwayland_unmanaged *unmanaged =
		wl_container_of(listener, unmanaged, set_override_redirect);
	struct wlr_xwayland_surface *xsurface = unmanaged->xsurface;
	struct server *server = unmanaged->server;
	bool mapped = xsurface->mapped;
	unmanaged_destroy(unmanaged);
	xwayland_view_create(server, xsurface);
	if (mapped) {
		wl_signal_emit(&xsurface->events.map, xsurface);
	}
}

void xwayland_unmanaged_create(struct server *server,
		struct wlr_xwayland_surface *xsurface) {
	struct xwayland_unmanaged *unmanaged = zalloc(sizeof(*unmanaged));
	unmanaged->server = server;
	unmanaged->xsurface = xsurface;
	xsurface->data = NULL;
	unmanaged->destroy.notify = handle_destroy;
	wl_signal_add(&xsurface->events.destroy, &unmanaged->destroy);
	unmanaged->map.notify = handle_map;
	wl_signal_add(&xsurface->events.map, &unmanaged->map);
	unmanaged->unmap.notify = handle_unmap;
	wl_signal_add(&xsurface->events.unmap, &unmanaged->unmap);
	unmanaged->set_geometry.notify = handle_set_geometry;
	wl_signal_add(&xsurface->events.set_geometry, &unmanaged->set_geometry);
	unmanaged->request_configure.notify = handle_request_configure;
	wl_signal_add(&xsurface->events.request_configure, &unmanaged->request_configure);
	unmanaged->set_override_redirect.notify = handle_set_override_redirect;
	wl_signal_add(&xsurface->events.set_override_redirect,
		&unmanaged->set_override_redirect);
}
