/* SPDX-License-Identifier: MIT */
#include <assert.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>
#include <xcb/xcb_icccm.h>
#include "compositor/seat.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"
#include "compositor/placement.h"
#include "xwm/icccm_focus.h"
#include "xwm/icccm_hints.h"
#include "xwm/sync_request.h"
#include "xwm/x11.h"
#include "xwm/xwayland.h"

/* A managed X window: a view whose client is an X11 app. */
struct xwayland_view {
	struct view base;
	struct wlr_xwayland_surface *xsurface;

	struct wl_listener destroy;
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener commit;
	struct wl_listener request_configure;
	struct wl_listener request_move;
	struct wl_listener request_resize;
	struct wl_listener request_minimize;
	struct wl_listener request_maximize;
	struct wl_listener request_fullscreen;
	struct wl_listener request_activate;
	struct wl_listener set_title;
	struct wl_listener set_class;
	struct wl_listener set_override_redirect;
	struct wl_listener set_hints;
	struct wl_listener ping_timeout;
	bool commit_linked;
	/* _NET_WM_WINDOW_TYPE policy, read at map. */
	bool type_decorated;
	uint32_t ewmh_states; /* EWMH_STATE_* (xwm/ewmh_state.c) */
	char *marked_title; /* the title + " (not responding)" */
	struct sync_request sync;
	/* Answering the client's own ConfigureRequest: no sync request. */
	bool client_request;
};

static const struct view_impl xwayland_view_impl;

static struct xwayland_view *xwayland_view_from_view(struct view *view) {
	assert(view->impl == &xwayland_view_impl);
	return (struct xwayland_view *)view;
}

#define NOT_RESPONDING " (not responding)"

static const char *get_title(struct view *view) {
	struct xwayland_view *xview = xwayland_view_from_view(view);
	if (view->not_responding) {
		const char *title = xview->xsurface->title ? xview->xsurface->title : "";
		size_t size = strlen(title) + sizeof(NOT_RESPONDING);
		char *marked = realloc(xview->marked_title, size);
		if (marked) {
			snprintf(marked, size, "%s" NOT_RESPONDING, title);
			xview->marked_title = marked;
			return marked;
		}
	}
	return xview->xsurface->title;
}

static const char *get_app_id(struct view *view) {
	return xwayland_view_from_view(view)->xsurface->class;
}

static pid_t get_pid(struct view *view) {
	return xwayland_view_from_view(view)->xsurface->pid;
}

static struct xwm_x11 *view_x11(struct view *view) {
	return xwm_get_x11(view->server->xwm);
}

static void configure(struct view *view, const struct wlr_box *geometry) {
	struct xwayland_view *xview = xwayland_view_from_view(view);
	/* A resize of oriel's waits until the client drew the one before. */
	if (!xview->client_request && sync_request_configure(&xview->sync, geometry)) {
		return;
	}
	/* X windows live in root coordinates, which are layout coordinates. */
	struct wlr_xwayland_surface *xsurface = xview->xsurface;
	wlr_xwayland_surface_configure(xsurface,
		geometry->x, geometry->y, geometry->width, geometry->height);
	/*
	 * ICCCM 4.1.5: wlroots sends only the real ConfigureNotify, which X
	 * omits when nothing changed (a refused request). The synthetic one
	 * always tells the client its root position.
	 */
	xwm_x11_send_configure_notify(view_x11(view), xsurface->window_id,
		geometry->x, geometry->y, geometry->width, geometry->height);
}

static void set_activated(struct view *view, bool activated) {
	struct wlr_xwayland_surface *xsurface = xwayland_view_from_view(view)->xsurface;
	wlr_xwayland_surface_activate(xsurface, activated);
	if (activated) {
		icccm_focus_activated(view_x11(view), xsurface);
	}
}

static bool accepts_focus(struct view *view) {
	return icccm_focus_accepts(xwayland_view_from_view(view)->xsurface);
}

static void set_maximized(struct view *view, unsigned axes) {
	struct wlr_xwayland_surface *xsurface = xwayland_view_from_view(view)->xsurface;
	if (axes == 0 || axes == PLACEMENT_AXES_BOTH) {
		wlr_xwayland_surface_set_maximized(xsurface, axes != 0);
		return;
	}
	/*
	 * wlroots 0.15 sets both axes or neither. One alone goes into its
	 * fields, from which it writes _NET_WM_STATE on every change (focus
	 * too); setting fullscreen to what it is writes the property now.
	 */
	xsurface->maximized_horz = axes & PLACEMENT_AXIS_HORZ;
	xsurface->maximized_vert = axes & PLACEMENT_AXIS_VERT;
	wlr_xwayland_surface_set_fullscreen(xsurface, xsurface->fullscreen);
}

unsigned xwayland_view_requested_axes(struct view *view) {
	struct wlr_xwayland_surface *xsurface = xwayland_view_xsurface(view);
	if (!xsurface) {
		return 0;
	}
	return (xsurface->maximized_horz ? PLACEMENT_AXIS_HORZ : 0) |
		(xsurface->maximized_vert ? PLACEMENT_AXIS_VERT : 0);
}

static void set_fullscreen(struct view *view, bool fullscreen) {
	wlr_xwayland_surface_set_fullscreen(xwayland_view_from_view(view)->xsurface,
		fullscreen);
}

static void set_minimized(struct view *view, bool minimized) {
	wlr_xwayland_surface_set_minimized(xwayland_view_from_view(view)->xsurface, minimized);
}

static bool supports_ping(struct view *view) {
	struct wlr_xwayland_surface *xsurface = xwayland_view_from_view(view)->xsurface;
	struct xwm_x11 *x11 = view_x11(view);
	return x11 && xwm_x11_has_protocol(xsurface->protocols, xsurface->protocols_len,
		x11->atoms[ATOM_NET_WM_PING]);
}

/*
 * WM_DELETE_WINDOW when the client supports it, else wlroots kills the
 * client (XKillClient). A client that stopped answering pings is killed
 * through its pid if it runs on this host (WM_CLIENT_MACHINE), else its
 * connection is closed (XKillClient).
 */
static void close_view(struct view *view) {
	struct wlr_xwayland_surface *xsurface = xwayland_view_from_view(view)->xsurface;
	if (view->not_responding) {
		if (xsurface->pid > 0 && xsurface->pid != getpid() &&
				xwm_x11_client_is_local(view_x11(view), xsurface->window_id)) {
			wlr_log(WLR_INFO, "Killing unresponsive X client, pid %d",
				(int)xsurface->pid);
			kill(xsurface->pid, SIGKILL);
		} else {
			wlr_log(WLR_INFO, "Disconnecting unresponsive X client of window 0x%x "
				"(not on this host, or no pid)", xsurface->window_id);
			xwm_x11_kill_client(view_x11(view), xsurface->window_id);
		}
		return;
	}
	wlr_xwayland_surface_close(xsurface);
	if (supports_ping(view) && !xsurface->pinging) {
		wlr_xwayland_surface_ping(xsurface);
	}
}

static struct view *get_parent(struct view *view) {
	struct wlr_xwayland_surface *parent = xwayland_view_from_view(view)->xsurface->parent;
	return parent && !parent->override_redirect ? parent->data : NULL;
}

/*
 * wlroots 0.15 memcpy()s xcb_size_hints_t into its own struct, whose
 * fields after height_inc are in another order: its base_* hold the min
 * aspect, its min_aspect_* the max aspect and its max_aspect_* the base
 * size. It then overwrites its "base" (our min aspect) with the min size
 * when the client gave no base size. Undone here; a min aspect that was
 * overwritten so is dropped (only the max aspect is honoured then).
 */
static void decode_size_hints(const struct wlr_xwayland_surface_size_hints *wlr_hints,
		struct icccm_size_hints *hints) {
	*hints = (struct icccm_size_hints){
		.flags = wlr_hints->flags,
		.min_width = wlr_hints->min_width,
		.min_height = wlr_hints->min_height,
		.max_width = wlr_hints->max_width,
		.max_height = wlr_hints->max_height,
		.width_inc = wlr_hints->width_inc,
		.height_inc = wlr_hints->height_inc,
		.max_aspect_num = wlr_hints->min_aspect_num,
		.max_aspect_den = wlr_hints->min_aspect_den,
		.base_width = wlr_hints->max_aspect_num,
		.base_height = wlr_hints->max_aspect_den,
		.win_gravity = wlr_hints->win_gravity,
	};
	if (wlr_hints->flags & ICCCM_P_BASE_SIZE) {
		hints->min_aspect_num = wlr_hints->base_width;
		hints->min_aspect_den = wlr_hints->base_height;
	}
}

static void constrain_size(struct view *view, int *width, int *height) {
	const struct wlr_xwayland_surface_size_hints *wlr_hints =
		xwayland_view_from_view(view)->xsurface->size_hints;
	if (!wlr_hints) {
		icccm_constrain_size(NULL, width, height);
		return;
	}
	struct icccm_size_hints hints;
	decode_size_hints(wlr_hints, &hints);
	icccm_constrain_size(&hints, width, height);
}

/* X's win_gravity (1 NorthWest .. 10 Static) as a placement gravity. */
static int requested_gravity(struct wlr_xwayland_surface *xsurface) {
	const struct wlr_xwayland_surface_size_hints *hints = xsurface->size_hints;
	if (!hints || !(hints->flags & ICCCM_P_WIN_GRAVITY) || hints->win_gravity < 1 ||
			hints->win_gravity > 10) {
		return PLACEMENT_GRAVITY_NORTH_WEST;
	}
	return (int)hints->win_gravity - 1;
}

static bool wants_client_decorations(struct view *view) {
	struct xwayland_view *xview = xwayland_view_from_view(view);
	return !xview->type_decorated ||
		xview->xsurface->decorations != WLR_XWAYLAND_SURFACE_DECORATIONS_ALL;
}

static void attention_changed(struct view *view) {
	ewmh_state_attention_changed(view_x11(view), view);
}

static void unlink_listeners(struct xwayland_view *xview) {
	wl_list_remove(&xview->destroy.link);
	wl_list_remove(&xview->map.link);
	wl_list_remove(&xview->unmap.link);
	wl_list_remove(&xview->request_configure.link);
	wl_list_remove(&xview->request_move.link);
	wl_list_remove(&xview->request_resize.link);
	wl_list_remove(&xview->request_minimize.link);
	wl_list_remove(&xview->request_maximize.link);
	wl_list_remove(&xview->request_fullscreen.link);
	wl_list_remove(&xview->request_activate.link);
	wl_list_remove(&xview->set_title.link);
	wl_list_remove(&xview->set_class.link);
	wl_list_remove(&xview->set_override_redirect.link);
	wl_list_remove(&xview->set_hints.link);
	wl_list_remove(&xview->ping_timeout.link);
	if (xview->commit_linked) {
		wl_list_remove(&xview->commit.link);
		xview->commit_linked = false;
	}
}

static void destroy(struct view *view) {
	struct xwayland_view *xview = xwayland_view_from_view(view);
	unlink_listeners(xview);
	sync_request_finish(&xview->sync);
	xview->xsurface->data = NULL;
	free(xview->marked_title);
	free(xview);
}

static const struct view_impl xwayland_view_impl = {
	.kind = VIEW_XWAYLAND,
	.get_title = get_title,
	.get_app_id = get_app_id,
	.get_pid = get_pid,
	.configure = configure,
	.set_activated = set_activated,
	.accepts_focus = accepts_focus,
	.set_maximized = set_maximized,
	.set_fullscreen = set_fullscreen,
	.set_minimized = set_minimized,
	.close = close_view,
	.get_parent = get_parent,
	.constrain_size = constrain_size,
	.wants_client_decorations = wants_client_decorations,
	.attention_changed = attention_changed,
	.destroy = destroy,
};

static void handle_commit(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, commit);
	struct wlr_surface *surface = xview->xsurface->surface;
	view_update_size(&xview->base, surface->current.width, surface->current.height);
}

static bool has_requested_position(struct wlr_xwayland_surface *xsurface) {
	return xsurface->size_hints && (xsurface->size_hints->flags &
		(XCB_ICCCM_SIZE_HINT_US_POSITION | XCB_ICCCM_SIZE_HINT_P_POSITION));
}

static void apply_type_policy(struct xwayland_view *xview) {
	struct view *view = &xview->base;
	struct ewmh_type_policy policy;
	ewmh_window_type_policy(xwm_x11_window_type(view_x11(view),
		xview->xsurface->window_id), &policy);
	xview->type_decorated = policy.decorated;
	view->no_focus_on_map = !policy.focus_on_map;
	static const enum view_placement placements[] = {
		[EWMH_PLACE_DEFAULT] = VIEW_PLACE_DEFAULT,
		[EWMH_PLACE_CENTER] = VIEW_PLACE_CENTER,
		[EWMH_PLACE_CORNER] = VIEW_PLACE_CORNER,
		[EWMH_PLACE_AS_REQUESTED] = VIEW_PLACE_AS_REQUESTED,
	};
	view->placement = placements[policy.placement];
}

static bool read_strut(struct xwayland_view *xview, struct placement_strut *out) {
	struct ewmh_strut strut;
	if (!xwm_x11_read_strut(view_x11(&xview->base), xview->xsurface->window_id,
			&strut)) {
		return false;
	}
	*out = (struct placement_strut){
		(int)strut.left, (int)strut.right, (int)strut.top, (int)strut.bottom,
		(int)strut.left_start_y, (int)strut.left_end_y,
		(int)strut.right_start_y, (int)strut.right_end_y,
		(int)strut.top_start_x, (int)strut.top_end_x,
		(int)strut.bottom_start_x, (int)strut.bottom_end_x,
	};
	return true;
}

static bool is_resizable(struct wlr_xwayland_surface *xsurface) {
	const struct wlr_xwayland_surface_size_hints *hints = xsurface->size_hints;
	return !hints || !(hints->flags & ICCCM_P_MIN_SIZE) ||
		!(hints->flags & ICCCM_P_MAX_SIZE) || hints->min_width != hints->max_width ||
		hints->min_height != hints->max_height;
}

static void handle_map(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, map);
	struct wlr_xwayland_surface *xsurface = xview->xsurface;
	struct view *view = &xview->base;
	view->surface = xsurface->surface;
	view->content = wlr_scene_subsurface_tree_create(&view->scene_tree->node,
		xsurface->surface);
	xview->commit.notify = handle_commit;
	wl_signal_add(&xsurface->surface->events.commit, &xview->commit);
	xview->commit_linked = true;
	xwm_x11_window_managed(view_x11(view), xsurface->window_id);
	apply_type_policy(xview);
	struct placement_strut strut;
	view->has_strut = read_strut(xview, &strut);
	if (view->has_strut) {
		view->strut = strut;
	}
	const struct wlr_xwayland_surface_hints *hints = xsurface->hints;
	bool iconic = hints && icccm_hints_start_iconic(hints->flags, hints->initial_state);
	if (iconic && !view->placed) {
		view->minimized = true;
	}
	view->urgent = hints && icccm_hints_urgent(hints->flags);
	/* Asked for before mapping; wlroots' XWM rewrote the property since. */
	view->band = xview->ewmh_states & EWMH_STATE_ABOVE ? VIEW_BAND_ABOVE :
		xview->ewmh_states & EWMH_STATE_BELOW ? VIEW_BAND_BELOW : VIEW_BAND_NORMAL;
	view->skip_taskbar = xview->ewmh_states & EWMH_STATE_SKIP_TASKBAR;
	view->requested_gravity = requested_gravity(xsurface);
	view->requested_border = has_requested_position(xsurface) ?
		xwm_x11_border_width(view_x11(view), xsurface->window_id) : 0;
	view_map(view, view->content, xsurface->width, xsurface->height,
		has_requested_position(xsurface) || view->placement == VIEW_PLACE_AS_REQUESTED,
		xsurface->x, xsurface->y);
	if (view->minimized) {
		/* WM_STATE Iconic and _NET_WM_STATE_HIDDEN, as the client asked. */
		wlr_xwayland_surface_set_minimized(xsurface, true);
	}
	xwm_x11_set_frame_extents(view_x11(view), xsurface->window_id,
		view->decoration.enabled);
	xwayland_view_update_icon(view);
	xwm_x11_set_allowed_actions(view_x11(view), xsurface->window_id,
		is_resizable(xsurface));
	ewmh_state_apply(view_x11(view), view, xview->ewmh_states);
	if (xsurface->fullscreen) {
		view_set_fullscreen(view, true);
	} else if (xsurface->maximized_horz || xsurface->maximized_vert) {
		view_set_maximized_axes(view, xwayland_view_requested_axes(view));
	}
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, unmap);
	struct view *view = &xview->base;
	view_unmap(view);
	if (xview->commit_linked) {
		wl_list_remove(&xview->commit.link);
		xview->commit_linked = false;
	}
	sync_request_unmapped(&xview->sync);
	/* An X window may map again with another surface: start afresh then. */
	if (view->content) {
		wlr_scene_node_destroy(view->content);
		view->content = NULL;
	}
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, destroy);
	view_destroy(&xview->base);
}

static void handle_request_configure(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, request_configure);
	struct wlr_xwayland_surface_configure_event *event = data;
	struct view *view = &xview->base;
	if (!view->mapped) {
		wlr_xwayland_surface_configure(xview->xsurface, event->x, event->y,
			event->width, event->height);
		return;
	}
	/* Floating windows may place and size themselves; managed states win. */
	xview->client_request = true;
	if (view->fullscreen || view->maximized || view->server->options->kiosk) {
		configure(view, &view->geometry);
	} else {
		struct wlr_box box = {event->x, event->y, event->width, event->height};
		view_keep_maximized_axes(view, &box);
		view_move_resize(view, &box);
	}
	xview->client_request = false;
}

static void handle_request_move(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, request_move);
	if (xview->base.mapped) {
		seat_begin_interactive(xview->base.server->seat, &xview->base, CURSOR_MOVE, 0);
	}
}

static void handle_request_resize(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, request_resize);
	struct wlr_xwayland_resize_event *event = data;
	if (xview->base.mapped) {
		seat_begin_interactive(xview->base.server->seat, &xview->base, CURSOR_RESIZE,
			event->edges);
	}
}

static void handle_request_minimize(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, request_minimize);
	struct wlr_xwayland_minimize_event *event = data;
	view_set_minimized(&xview->base, event->minimize);
}

static void handle_request_maximize(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, request_maximize);
	if (xview->base.mapped) {
		view_set_maximized_axes(&xview->base, xwayland_view_requested_axes(&xview->base));
	}
}

static void handle_request_fullscreen(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, request_fullscreen);
	if (xview->base.mapped) {
		view_set_fullscreen(&xview->base, xview->xsurface->fullscreen);
	}
}

/*
 * _NET_ACTIVE_WINDOW. oriel's own X connection sees the same message with
 * its source and timestamp and applies focus-stealing prevention
 * (xwm/ewmh_client.c); this is only the fallback without it.
 */
static void handle_request_activate(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, request_activate);
	if (xview->base.mapped && !view_x11(&xview->base)) {
		view_focus(&xview->base);
	}
}

static void handle_set_title(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, set_title);
	view_update_title(&xview->base);
}

static void handle_set_class(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, set_class);
	view_update_app_id(&xview->base);
}

/* A window that becomes override-redirect stops being managed: new type. */
static void handle_set_override_redirect(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, set_override_redirect);
	struct wlr_xwayland_surface *xsurface = xview->xsurface;
	struct server *server = xview->base.server;
	bool mapped = xsurface->mapped;
	if (mapped) {
		handle_unmap(&xview->unmap, NULL);
	}
	view_destroy(&xview->base);
	xwayland_unmanaged_create(server, xsurface);
	if (mapped) {
		wl_signal_emit(&xsurface->events.map, xsurface);
	}
}

static void handle_set_hints(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, set_hints);
	const struct wlr_xwayland_surface_hints *hints = xview->xsurface->hints;
	view_set_urgent(&xview->base, hints && icccm_hints_urgent(hints->flags));
}

static void handle_ping_timeout(struct wl_listener *listener, void *data) {
	struct xwayland_view *xview = wl_container_of(listener, xview, ping_timeout);
	wlr_log(WLR_INFO, "X window 0x%x does not answer pings", xview->xsurface->window_id);
	view_set_not_responding(&xview->base, true);
}

struct view *xwayland_view_find(struct server *server, uint32_t window) {
	struct view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->impl == &xwayland_view_impl &&
				xwayland_view_from_view(view)->xsurface->window_id == window) {
			return view;
		}
	}
	return NULL;
}

uint32_t xwayland_view_window(struct view *view) {
	return view->impl == &xwayland_view_impl ?
		xwayland_view_from_view(view)->xsurface->window_id : 0;
}

bool xwayland_view_will_decorate(struct view *view) {
	struct xwayland_view *xview = xwayland_view_from_view(view);
	if (view->mapped) {
		return view->decoration.enabled;
	}
	struct ewmh_type_policy policy;
	ewmh_window_type_policy(xwm_x11_window_type(view_x11(view),
		xview->xsurface->window_id), &policy);
	return policy.decorated && !view->server->options->kiosk &&
		xview->xsurface->decorations == WLR_XWAYLAND_SURFACE_DECORATIONS_ALL;
}

/* _NET_MOVERESIZE_WINDOW: like a ConfigureRequest, with a gravity. */
void xwayland_view_moveresize(struct view *view, const struct ewmh_moveresize *request) {
	if (view->fullscreen || view->maximized || view->server->options->kiosk) {
		return;
	}
	struct wlr_box box = view->geometry;
	if (request->has_width) {
		box.width = request->width;
	}
	if (request->has_height) {
		box.height = request->height;
	}
	int gravity = request->gravity ? request->gravity - 1 :
		requested_gravity(xwayland_view_from_view(view)->xsurface);
	if (request->has_x || request->has_y) {
		int x = request->has_x ? request->x : 0, y = request->has_y ? request->y : 0;
		int top = view->decoration.enabled ? DECORATION_TITLE_HEIGHT + DECORATION_BORDER : 0;
		int side = view->decoration.enabled ? DECORATION_BORDER : 0;
		placement_apply_gravity(gravity, box.width, box.height, 0, top, side, &x, &y);
		if (request->has_x) {
			box.x = x;
		}
		if (request->has_y) {
			box.y = y;
		}
	}
	view_keep_maximized_axes(view, &box);
	view_move_resize(view, &box);
}

void xwayland_view_ponged(struct view *view) {
	view_set_not_responding(view, false);
}

void xwayland_view_update_strut(struct view *view) {
	struct placement_strut strut;
	if (read_strut(xwayland_view_from_view(view), &strut)) {
		view_set_strut(view, &strut);
	} else if (view->has_strut) {
		view_set_strut(view, NULL);
	}
}

void xwayland_view_update_icon(struct view *view) {
	uint32_t pixels[DECORATION_ICON_SIZE * DECORATION_ICON_SIZE];
	bool ok = xwm_x11_read_icon(view_x11(view), xwayland_view_window(view),
		DECORATION_ICON_SIZE, pixels);
	decoration_set_icon(&view->decoration, ok ? pixels : NULL);
}

uint32_t *xwayland_view_states(struct view *view) {
	return &xwayland_view_from_view(view)->ewmh_states;
}

struct sync_request *xwayland_view_sync(struct view *view) {
	return view->impl == &xwayland_view_impl ? &xwayland_view_from_view(view)->sync :
		NULL;
}

struct wlr_xwayland_surface *xwayland_view_xsurface(struct view *view) {
	return view->impl == &xwayland_view_impl ? xwayland_view_from_view(view)->xsurface :
		NULL;
}

void xwayland_view_create(struct server *server, struct wlr_xwayland_surface *xsurface) {
	struct xwayland_view *xview = zalloc(sizeof(*xview));
	xview->xsurface = xsurface;
	/* Its _NET_WM_STATE is read at its MapRequest (xwm/xwayland.c). */
	view_init(&xview->base, server, &xwayland_view_impl, xsurface->surface);
	xsurface->data = &xview->base;
	sync_request_init(&xview->sync, &xview->base, xsurface);

	xview->destroy.notify = handle_destroy;
	wl_signal_add(&xsurface->events.destroy, &xview->destroy);
	xview->map.notify = handle_map;
	wl_signal_add(&xsurface->events.map, &xview->map);
	xview->unmap.notify = handle_unmap;
	wl_signal_add(&xsurface->events.unmap, &xview->unmap);
	xview->request_configure.notify = handle_request_configure;
	wl_signal_add(&xsurface->events.request_configure, &xview->request_configure);
	xview->request_move.notify = handle_request_move;
	wl_signal_add(&xsurface->events.request_move, &xview->request_move);
	xview->request_resize.notify = handle_request_resize;
	wl_signal_add(&xsurface->events.request_resize, &xview->request_resize);
	xview->request_minimize.notify = handle_request_minimize;
	wl_signal_add(&xsurface->events.request_minimize, &xview->request_minimize);
	xview->request_maximize.notify = handle_request_maximize;
	wl_signal_add(&xsurface->events.request_maximize, &xview->request_maximize);
	xview->request_fullscreen.notify = handle_request_fullscreen;
	wl_signal_add(&xsurface->events.request_fullscreen, &xview->request_fullscreen);
	xview->request_activate.notify = handle_request_activate;
	wl_signal_add(&xsurface->events.request_activate, &xview->request_activate);
	xview->set_title.notify = handle_set_title;
	wl_signal_add(&xsurface->events.set_title, &xview->set_title);
	xview->set_class.notify = handle_set_class;
	wl_signal_add(&xsurface->events.set_class, &xview->set_class);
	xview->set_override_redirect.notify = handle_set_override_redirect;
	wl_signal_add(&xsurface->events.set_override_redirect,
		&xview->set_override_redirect);
	xview->set_hints.notify = handle_set_hints;
	wl_signal_add(&xsurface->events.set_hints, &xview->set_hints);
	xview->ping_timeout.notify = handle_ping_timeout;
	wl_signal_add(&xsurface->events.ping_timeout, &xview->ping_timeout);
	xview->type_decorated = true;
}
