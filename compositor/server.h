/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_SERVER_H
#define ORIEL_SERVER_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include "compositor/options.h"

struct wlr_scene_tree;

/* Bands of LAYER_VIEWS, bottom to top (X11 _NET_WM_STATE_BELOW/ABOVE). */
enum view_band {
	VIEW_BAND_BELOW,
	VIEW_BAND_NORMAL,
	VIEW_BAND_ABOVE,
	VIEW_BAND_COUNT,
};

/* Scene layers, bottom to top. */
enum scene_layer {
	LAYER_BACKGROUND,
	LAYER_BOTTOM,
	LAYER_VIEWS,
	LAYER_TOP,
	LAYER_UNMANAGED, /* override-redirect X windows: menus, tooltips */
	LAYER_OVERLAY,
	LAYER_SYSTEM, /* oriel's own: the permission prompt, the sharing indicator */
	LAYER_COUNT,
};

struct server {
	const struct oriel_options *options;

	struct wl_display *display;
	struct wl_event_loop *loop;
	const char *socket;

	struct wlr_backend *backend;
	/* Present when oriel runs headless: our outputs, idle without wakeups. */
	struct wlr_backend *headless;
	/* Not headless: the backend added for virtual outputs, once one is made. */
	struct wlr_backend *virtual_backend;
	/* wlroots' headless backend: source of the virtual input devices. */
	struct wlr_backend *input_backend;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;

	struct wlr_compositor *compositor;
	struct wlr_output_layout *output_layout;
	struct wl_list outputs; /* output.link */

	struct wlr_scene *scene;
	struct wlr_scene_tree *layers[LAYER_COUNT];
	struct wlr_scene_tree *view_bands[VIEW_BAND_COUNT]; /* in LAYER_VIEWS */

	struct wl_list views; /* view.link, top of the stack first */
	struct view *focused_view;
	int cascade; /* counts placements, to cascade new windows */
	uint64_t next_view_id;
	uint64_t next_focus_serial; /* orders views by when they last had focus */
	struct switcher *switcher;

	struct seat *seat;
	struct shells *shells;
	struct layer_shell *layer_shell;
	struct decoration_protocols *decoration_protocols;
	struct protocols *protocols;
	struct privileged_globals *privileged_globals;
	struct xwm *xwm;
	struct control *control;
	struct virtual_input *virtual_input;
	/* --handover-socket: clients oriel-gateway logged in (remote/handover_server.h). */
	struct handover_server *handover;
	/* The permission prompt while it is up: it has all input (prompt.h). */
	struct prompt *prompt;
	/* The region selector while it is up: it has all input (region_select.h). */
	struct region_select *region_select;
	/* The badge shown while the screen is shared (share_indicator.h). */
	struct share_indicator *share_indicator;

	struct wlr_presentation *presentation;
	struct wlr_foreign_toplevel_manager_v1 *foreign_toplevels;
	struct wlr_idle *idle;

	struct wl_listener new_output;
	struct wl_listener layout_change;
	struct wl_signal events_outputs_changed; /* output geometry changed */
	struct wl_signal events_stacking_changed; /* server.views was reordered */
	/* A view moved without changing size: struct view_moved_event * */
	struct wl_signal events_view_moved;
};

bool server_init(struct server *server, const struct oriel_options *options);
/* Starts the backend and the Wayland socket; returns false on failure. */
bool server_start(struct server *server);
void server_finish(struct server *server);

#endif
