/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_VIEW_H
#define ORIEL_VIEW_H

/*
 * A view is a managed toplevel window, whatever its shell. xdg toplevels
 * and managed X windows implement view_impl; override-redirect X windows
 * are not views (see xwm/).
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-server-core.h>
#include <wlr/util/box.h>
#include "compositor/decoration.h"
#include "compositor/placement.h"
#include "compositor/server.h"

struct server;
struct view;
struct wlr_surface;

enum view_kind { VIEW_XDG, VIEW_XWAYLAND };

/* Where a new view goes (X11 _NET_WM_WINDOW_TYPE policy); the shell sets it. */
enum view_placement {
	VIEW_PLACE_DEFAULT,      /* cascade, or the position the client asked for */
	VIEW_PLACE_CENTER,       /* over its parent, else centered on the output */
	VIEW_PLACE_CORNER,       /* top-right of the usable area */
	VIEW_PLACE_AS_REQUESTED, /* exactly where the client put it */
};

struct view_impl {
	enum view_kind kind;
	const char *(*get_title)(struct view *view);
	/* app_id, or WM_CLASS class for X11 */
	const char *(*get_app_id)(struct view *view);
	pid_t (*get_pid)(struct view *view);
	/* Asks the client for this content geometry, in layout coordinates. */
	void (*configure)(struct view *view, const struct wlr_box *geometry);
	void (*set_activated)(struct view *view, bool activated);
	/* Optional: false for windows that never take keyboard focus (ICCCM No Input). */
	bool (*accepts_focus)(struct view *view);
	/* axes: enum placement_axes; xdg toplevels know only both or none. */
	void (*set_maximized)(struct view *view, unsigned axes);
	void (*set_fullscreen)(struct view *view, bool fullscreen);
	void (*set_minimized)(struct view *view, bool minimized);
	void (*close)(struct view *view);
	/* The view this one is a dialog of, or NULL. */
	struct view *(*get_parent)(struct view *view);
	/*
	 * Optional: the allowed content size closest to *width x *height
	 * (X11 WM_NORMAL_HINTS). Applied to every resize but fullscreen.
	 */
	void (*constrain_size)(struct view *view, int *width, int *height);
	/* Whether the client draws its own decorations. */
	bool (*wants_client_decorations)(struct view *view);
	/* Optional: view_wants_attention() changed while mapped. */
	void (*attention_changed)(struct view *view);
	/* Frees the implementation's struct; called by view_destroy. */
	void (*destroy)(struct view *view);
};

struct view {
	struct server *server;
	const struct view_impl *impl;
	struct wl_list link; /* server.views, top first */
	uint64_t id;
	uint64_t focus_serial; /* server.next_focus_serial when last focused */

	struct wlr_surface *surface;
	/* Placed at the content's top-left; holds the decoration and the content. */
	struct wlr_scene_tree *scene_tree;
	struct wlr_scene_node *content;
	struct decoration decoration;

	/* Content geometry in layout coordinates. */
	struct wlr_box geometry;
	/* Geometry to return to after maximize (per axis) or fullscreen. */
	struct wlr_box restore;
	/* maximized: on both axes, which maximized_axes (enum placement_axes) lists. */
	bool mapped, maximized, fullscreen, minimized;
	unsigned maximized_axes;
	/*
	 * enum placement_gravity of a position the client asks for at map
	 * (X11 win_gravity); the shell sets it before view_map.
	 */
	int requested_gravity;
	int requested_border; /* X border width around that position */
	/* Set once the view was placed, so later maps keep their position. */
	bool placed;
	enum view_placement placement;
	bool no_focus_on_map;
	/* Attention: the client's urgency flag, or a request (cleared by focus). */
	bool urgent, attention_requested;
	/* The client did not answer a ping: the shell's get_title says so. */
	bool not_responding;
	/* Kept above or below normal windows (X11 _NET_WM_STATE_ABOVE/BELOW). */
	enum view_band band;
	/* Left out of taskbars: no foreign-toplevel handle (X11 SKIP_TASKBAR). */
	bool skip_taskbar;
	/* Space the view reserves at the layout's edges (X docks). */
	bool has_strut;
	struct placement_strut strut;

	struct wlr_foreign_toplevel_handle_v1 *toplevel_handle;
	struct wl_listener toplevel_request_activate;
	struct wl_listener toplevel_request_close;
	struct wl_listener toplevel_request_maximize;
	struct wl_listener toplevel_request_fullscreen;
	struct wl_listener toplevel_request_minimize;
};

/*
 * server->events_view_moved: the view's frame (view_frame_box) went from
 * one place to another with its size and content unchanged, so sinks may
 * send the move as a copy. Layout coordinates.
 */
struct view_moved_event {
	struct view *view;
	struct wlr_box from, to;
};

void view_init(struct view *view, struct server *server, const struct view_impl *impl,
	struct wlr_surface *surface);
/* Removes the view from the scene and lists and frees it through impl->destroy. */
void view_destroy(struct view *view);

/* The shell calls these when the client maps, unmaps or changes. */
/*
 * content is the surface tree the shell made under view->scene_tree.
 * requested_x/y are honoured when has_position (X11 USPosition/PPosition).
 */
void view_map(struct view *view, struct wlr_scene_node *content, int width,
	int height, bool has_position, int requested_x, int requested_y);
void view_unmap(struct view *view);
/* The client committed a new size; x/y stay where the compositor put them. */
void view_update_size(struct view *view, int width, int height);
void view_update_title(struct view *view);
void view_update_app_id(struct view *view);

/* Policy, used by input, the control API and client requests. */
void view_focus(struct view *view);
void view_raise(struct view *view);
void view_move(struct view *view, int x, int y);
void view_move_resize(struct view *view, const struct wlr_box *geometry);
void view_set_maximized(struct view *view, bool maximized);
/* X11 maximizes one axis alone: enum placement_axes. */
void view_set_maximized_axes(struct view *view, unsigned axes);
/* A client asked for box: the axes the view is maximized on stay as they are. */
void view_keep_maximized_axes(const struct view *view, struct wlr_box *box);
void view_set_fullscreen(struct view *view, bool fullscreen);
void view_set_minimized(struct view *view, bool minimized);
void view_close(struct view *view);
/* Attention indicator: the title bar turns orange until the view has focus. */
void view_set_urgent(struct view *view, bool urgent);
void view_request_attention(struct view *view, bool attention);
bool view_wants_attention(const struct view *view);
void view_set_not_responding(struct view *view, bool not_responding);
/* Moves the view into a stacking band, at the top of it. */
void view_set_band(struct view *view, enum view_band band);
void view_set_skip_taskbar(struct view *view, bool skip_taskbar);
/* Reserves (or with NULL, releases) space at the layout edges. */
void view_set_strut(struct view *view, const struct placement_strut *strut);
/* layer_shell.c: takes the views' struts out of an output's usable area. */
void view_apply_struts(struct server *server, const struct wlr_box *output_box,
	struct placement_box *usable);
/* Outputs changed: keep maximized, fullscreen and kiosk views fitted. */
void view_arrange_all(struct server *server);
/*
 * Brings back windows that no output shows any more (their output went
 * away) onto the focused output.
 */
void view_gather_offscreen(struct server *server);

struct view *view_from_id(struct server *server, uint64_t id);
struct view *view_focused(struct server *server);
/* The view whose scene node contains node, or NULL. */
struct view *view_from_node(struct wlr_scene_node *node);
const char *view_kind_name(const struct view *view);
/* Geometry including the server-side decoration. */
void view_frame_box(const struct view *view, struct wlr_box *box);

#endif
