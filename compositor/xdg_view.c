/* SPDX-License-Identifier: MIT */
#include <assert.h>
#include <stdlib.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/edges.h>
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"
#include "compositor/xdg_shell.h"

struct xdg_view {
	struct view base;
	struct wlr_xdg_surface *xdg_surface;
	bool server_side;

	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener destroy;
	struct wl_listener commit;
	struct wl_listener new_popup;
	struct wl_listener request_move;
	struct wl_listener request_resize;
	struct wl_listener request_maximize;
	struct wl_listener request_fullscreen;
	struct wl_listener request_minimize;
	struct wl_listener set_title;
	struct wl_listener set_app_id;
};

/* A popup at any depth: keeps itself inside the output its toplevel is on. */
struct xdg_popup {
	struct xdg_view *view;
	struct wlr_xdg_surface *xdg_surface;
	/* Shows the popup's surfaces; a child of its parent's node. */
	struct wlr_scene_node *node;
	struct wl_listener new_popup;
	struct wl_listener commit;
	struct wl_listener destroy;
};

static const struct view_impl xdg_view_impl;

static struct xdg_view *xdg_view_from_view(struct view *view) {
	assert(view->impl == &xdg_view_impl);
	return (struct xdg_view *)view;
}

static const char *get_title(struct view *view) {
	return xdg_view_from_view(view)->xdg_surface->toplevel->title;
}

static const char *get_app_id(struct view *view) {
	return xdg_view_from_view(view)->xdg_surface->toplevel->app_id;
}

static pid_t get_pid(struct view *view) {
	pid_t pid = 0;
	struct wl_resource *resource = xdg_view_from_view(view)->xdg_surface->resource;
	wl_client_get_credentials(wl_resource_get_client(resource), &pid, NULL, NULL);
	return pid;
}

static void configure(struct view *view, const struct wlr_box *geometry) {
	struct wlr_xdg_surface *xdg_surface = xdg_view_from_view(view)->xdg_surface;
	struct wlr_xdg_toplevel *toplevel = xdg_surface->toplevel;
	/* Only the size is the client's business; the position is ours. */
	if ((uint32_t)geometry->width != toplevel->scheduled.width ||
			(uint32_t)geometry->height != toplevel->scheduled.height ||
			geometry->width != view->geometry.width ||
			geometry->height != view->geometry.height) {
		wlr_xdg_toplevel_set_size(xdg_surface, geometry->width, geometry->height);
	}
}

static void set_activated(struct view *view, bool activated) {
	wlr_xdg_toplevel_set_activated(xdg_view_from_view(view)->xdg_surface, activated);
}

static void set_maximized(struct view *view, unsigned axes) {
	wlr_xdg_toplevel_set_maximized(xdg_view_from_view(view)->xdg_surface,
		axes == PLACEMENT_AXES_BOTH);
}

static void set_fullscreen(struct view *view, bool fullscreen) {
	wlr_xdg_toplevel_set_fullscreen(xdg_view_from_view(view)->xdg_surface, fullscreen);
}

static void set_minimized(struct view *view, bool minimized) {
	/* xdg-shell has no minimized state to tell the client. */
}

static void close_view(struct view *view) {
	wlr_xdg_toplevel_send_close(xdg_view_from_view(view)->xdg_surface);
}

static struct view *get_parent(struct view *view) {
	struct wlr_xdg_surface *parent =
		xdg_view_from_view(view)->xdg_surface->toplevel->parent;
	return parent ? parent->data : NULL;
}

static bool wants_client_decorations(struct view *view) {
	return !xdg_view_from_view(view)->server_side;
}

static void destroy(struct view *view) {
	struct xdg_view *xdg_view = xdg_view_from_view(view);
	wl_list_remove(&xdg_view->map.link);
	wl_list_remove(&xdg_view->unmap.link);
	wl_list_remove(&xdg_view->destroy.link);
	wl_list_remove(&xdg_view->commit.link);
	wl_list_remove(&xdg_view->new_popup.link);
	wl_list_remove(&xdg_view->request_move.link);
	wl_list_remove(&xdg_view->request_resize.link);
	wl_list_remove(&xdg_view->request_maximize.link);
	wl_list_remove(&xdg_view->request_fullscreen.link);
	wl_list_remove(&xdg_view->request_minimize.link);
	wl_list_remove(&xdg_view->set_title.link);
	wl_list_remove(&xdg_view->set_app_id.link);
	xdg_view->xdg_surface->data = NULL;
	free(xdg_view);
}

static const struct view_impl xdg_view_impl = {
	.kind = VIEW_XDG,
	.get_title = get_title,
	.get_app_id = get_app_id,
	.get_pid = get_pid,
	.configure = configure,
	.set_activated = set_activated,
	.set_maximized = set_maximized,
	.set_fullscreen = set_fullscreen,
	.set_minimized = set_minimized,
	.close = close_view,
	.get_parent = get_parent,
	.wants_client_decorations = wants_client_decorations,
	.destroy = destroy,
};

/*
 * The window geometry excludes client shadows. The scene's xdg node keeps
 * its origin at the geometry's corner, so only the size needs following.
 */
static void sync_geometry(struct xdg_view *xdg_view) {
	struct wlr_box geometry;
	wlr_xdg_surface_get_geometry(xdg_view->xdg_surface, &geometry);
	view_update_size(&xdg_view->base, geometry.width, geometry.height);
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, commit);
	if (xdg_view->base.mapped) {
		sync_geometry(xdg_view);
	}
}

static void handle_map(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, map);
	struct view *view = &xdg_view->base;
	struct wlr_box geometry;
	wlr_xdg_surface_get_geometry(xdg_view->xdg_surface, &geometry);
	if (!view->content) {
		view->content = wlr_scene_xdg_surface_create(&view->scene_tree->node,
			xdg_view->xdg_surface);
	}
	view_map(view, view->content, geometry.width, geometry.height, false, 0, 0);

	struct wlr_xdg_toplevel_requested *requested =
		&xdg_view->xdg_surface->toplevel->requested;
	if (requested->fullscreen) {
		view_set_fullscreen(view, true);
	} else if (requested->maximized) {
		view_set_maximized(view, true);
	}
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, unmap);
	view_unmap(&xdg_view->base);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, destroy);
	view_destroy(&xdg_view->base);
}

static void handle_request_move(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, request_move);
	struct seat *seat = xdg_view->base.server->seat;
	if (xdg_view->base.mapped) {
		seat_begin_interactive(seat, &xdg_view->base, CURSOR_MOVE, 0);
	}
}

static void handle_request_resize(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, request_resize);
	struct wlr_xdg_toplevel_resize_event *event = data;
	struct seat *seat = xdg_view->base.server->seat;
	if (xdg_view->base.mapped) {
		seat_begin_interactive(seat, &xdg_view->base, CURSOR_RESIZE, event->edges);
	}
}

static void handle_request_maximize(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, request_maximize);
	struct view *view = &xdg_view->base;
	if (view->mapped) {
		view_set_maximized(view, xdg_view->xdg_surface->toplevel->requested.maximized);
	} else {
		/* The protocol wants a configure in reply even before mapping. */
		wlr_xdg_surface_schedule_configure(xdg_view->xdg_surface);
	}
}

static void handle_request_fullscreen(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, request_fullscreen);
	struct view *view = &xdg_view->base;
	if (view->mapped) {
		view_set_fullscreen(view, xdg_view->xdg_surface->toplevel->requested.fullscreen);
	} else {
		wlr_xdg_surface_schedule_configure(xdg_view->xdg_surface);
	}
}

static void handle_request_minimize(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, request_minimize);
	if (xdg_view->base.mapped) {
		view_set_minimized(&xdg_view->base, true);
	}
}

static void handle_set_title(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, set_title);
	view_update_title(&xdg_view->base);
}

static void handle_set_app_id(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, set_app_id);
	view_update_app_id(&xdg_view->base);
}

static void popup_create(struct xdg_view *view, struct wlr_xdg_surface *xdg_surface,
	struct wlr_scene_node *parent_node);

static void unconstrain_popup(struct xdg_popup *popup) {
	struct view *view = &popup->view->base;
	struct output *output = output_at(view->server,
		view->geometry.x + view->geometry.width / 2.0,
		view->geometry.y + view->geometry.height / 2.0);
	if (!output) {
		output = output_focused(view->server);
	}
	if (!output) {
		return;
	}
	/* The box is relative to the toplevel's window geometry. */
	struct wlr_box box;
	output_layout_box(output, &box);
	box.x -= view->geometry.x;
	box.y -= view->geometry.y;
	wlr_xdg_popup_unconstrain_from_box(popup->xdg_surface->popup, &box);
}

/*
 * Scene xdg nodes have their origin at the window geometry, and
 * popup->geometry is relative to the parent's window geometry.
 */
static void position_popup(struct xdg_popup *popup) {
	struct wlr_box *placed = &popup->xdg_surface->popup->geometry;
	wlr_scene_node_set_position(popup->node, placed->x, placed->y);
}

static void handle_popup_new_popup(struct wl_listener *listener, void *data) {
	struct xdg_popup *popup = wl_container_of(listener, popup, new_popup);
	struct wlr_xdg_popup *wlr_popup = data;
	popup_create(popup->view, wlr_popup->base, popup->node);
}

static void handle_popup_commit(struct wl_listener *listener, void *data) {
	struct xdg_popup *popup = wl_container_of(listener, popup, commit);
	position_popup(popup);
}

static void handle_popup_destroy(struct wl_listener *listener, void *data) {
	struct xdg_popup *popup = wl_container_of(listener, popup, destroy);
	wl_list_remove(&popup->new_popup.link);
	wl_list_remove(&popup->commit.link);
	wl_list_remove(&popup->destroy.link);
	/* The scene's xdg node destroys itself with the surface. */
	free(popup);
}

static void popup_create(struct xdg_view *view, struct wlr_xdg_surface *xdg_surface,
		struct wlr_scene_node *parent_node) {
	struct xdg_popup *popup = zalloc(sizeof(*popup));
	popup->view = view;
	popup->xdg_surface = xdg_surface;
	popup->node = wlr_scene_xdg_surface_create(parent_node, xdg_surface);
	popup->new_popup.notify = handle_popup_new_popup;
	wl_signal_add(&xdg_surface->events.new_popup, &popup->new_popup);
	popup->commit.notify = handle_popup_commit;
	wl_signal_add(&xdg_surface->surface->events.commit, &popup->commit);
	popup->destroy.notify = handle_popup_destroy;
	wl_signal_add(&xdg_surface->events.destroy, &popup->destroy);
	unconstrain_popup(popup);
}

static void handle_new_popup(struct wl_listener *listener, void *data) {
	struct xdg_view *xdg_view = wl_container_of(listener, xdg_view, new_popup);
	struct wlr_xdg_popup *wlr_popup = data;
	struct view *view = &xdg_view->base;
	if (!view->content) {
		view->content = wlr_scene_xdg_surface_create(&view->scene_tree->node,
			xdg_view->xdg_surface);
	}
	popup_create(xdg_view, wlr_popup->base, view->content);
}

static void xdg_view_create(struct server *server, struct wlr_xdg_surface *xdg_surface) {
	struct xdg_view *xdg_view = zalloc(sizeof(*xdg_view));
	xdg_view->xdg_surface = xdg_surface;
	view_init(&xdg_view->base, server, &xdg_view_impl, xdg_surface->surface);
	xdg_surface->data = &xdg_view->base;

	struct wlr_xdg_toplevel *toplevel = xdg_surface->toplevel;
	xdg_view->map.notify = handle_map;
	wl_signal_add(&xdg_surface->events.map, &xdg_view->map);
	xdg_view->unmap.notify = handle_unmap;
	wl_signal_add(&xdg_surface->events.unmap, &xdg_view->unmap);
	xdg_view->destroy.notify = handle_destroy;
	wl_signal_add(&xdg_surface->events.destroy, &xdg_view->destroy);
	xdg_view->commit.notify = handle_commit;
	wl_signal_add(&xdg_surface->surface->events.commit, &xdg_view->commit);
	xdg_view->new_popup.notify = handle_new_popup;
	wl_signal_add(&xdg_surface->events.new_popup, &xdg_view->new_popup);
	xdg_view->request_move.notify = handle_request_move;
	wl_signal_add(&toplevel->events.request_move, &xdg_view->request_move);
	xdg_view->request_resize.notify = handle_request_resize;
	wl_signal_add(&toplevel->events.request_resize, &xdg_view->request_resize);
	xdg_view->request_maximize.notify = handle_request_maximize;
	wl_signal_add(&toplevel->events.request_maximize, &xdg_view->request_maximize);
	xdg_view->request_fullscreen.notify = handle_request_fullscreen;
	wl_signal_add(&toplevel->events.request_fullscreen, &xdg_view->request_fullscreen);
	xdg_view->request_minimize.notify = handle_request_minimize;
	wl_signal_add(&toplevel->events.request_minimize, &xdg_view->request_minimize);
	xdg_view->set_title.notify = handle_set_title;
	wl_signal_add(&toplevel->events.set_title, &xdg_view->set_title);
	xdg_view->set_app_id.notify = handle_set_app_id;
	wl_signal_add(&toplevel->events.set_app_id, &xdg_view->set_app_id);
}

void xdg_shell_set_server_side(struct wlr_surface *surface, bool server_side) {
	if (!wlr_surface_is_xdg_surface(surface)) {
		return;
	}
	struct wlr_xdg_surface *xdg_surface = wlr_xdg_surface_from_wlr_surface(surface);
	if (!xdg_surface || xdg_surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL ||
			!xdg_surface->data) {
		return;
	}
	struct xdg_view *xdg_view = xdg_view_from_view(xdg_surface->data);
	xdg_view->server_side = server_side;
	struct view *view = &xdg_view->base;
	if (view->mapped && !view->fullscreen && !view->server->options->kiosk) {
		decoration_set_enabled(&view->decoration, server_side);
	}
}

/* The shell's own listener, kept in a struct so it can be removed. */
struct shells {
	struct wlr_xdg_shell *xdg_shell;
	struct wl_listener new_surface;
};

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct wlr_xdg_surface *xdg_surface = data;
	struct server *server = xdg_surface->client->shell->data;
	if (xdg_surface->role == WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
		xdg_view_create(server, xdg_surface);
	}
	/* Popups are handled through their parent's new_popup. */
}

void xdg_shell_init(struct server *server) {
	struct shells *shells = zalloc(sizeof(*shells));
	shells->xdg_shell = wlr_xdg_shell_create(server->display);
	shells->xdg_shell->data = server;
	shells->new_surface.notify = handle_new_surface;
	wl_signal_add(&shells->xdg_shell->events.new_surface, &shells->new_surface);
	server->shells = shells;
}

void xdg_shell_finish(struct server *server) {
	if (!server->shells) {
		return;
	}
	wl_list_remove(&server->shells->new_surface.link);
	free(server->shells);
	server->shells = NULL;
}
