/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include "compositor/layer_geometry.h"
#include "compositor/layer_shell.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"

struct layer_shell {
	struct server *server;
	struct wlr_layer_shell_v1 *wlr_layer_shell;
	struct wl_list surfaces; /* layer_surface.link */
	struct wl_listener new_surface;
};

struct layer_surface {
	struct layer_shell *shell;
	struct wlr_layer_surface_v1 *wlr_surface;
	struct wlr_scene_node *node;
	struct wl_list link;
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener destroy;
	struct wl_listener commit;
};

static const enum scene_layer scene_layers[] = {
	[ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND] = LAYER_BACKGROUND,
	[ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM] = LAYER_BOTTOM,
	[ZWLR_LAYER_SHELL_V1_LAYER_TOP] = LAYER_TOP,
	[ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY] = LAYER_OVERLAY,
};

static struct placement_box to_placement(const struct wlr_box *box) {
	return (struct placement_box){box->x, box->y, box->width, box->height};
}

/* Surfaces with an exclusive zone go first, so the others avoid them. */
static void arrange_pass(struct output *output, struct placement_box *usable,
		const struct placement_box *full, bool exclusive) {
	struct layer_surface *surface;
	wl_list_for_each(surface, &output->server->layer_shell->surfaces, link) {
		struct wlr_layer_surface_v1 *wlr_surface = surface->wlr_surface;
		const struct wlr_layer_surface_v1_state *state = &wlr_surface->current;
		if (wlr_surface->output != output->wlr_output ||
				(state->exclusive_zone > 0) != exclusive) {
			continue;
		}
		struct layer_request request = {
			.anchor = state->anchor,
			.exclusive_zone = state->exclusive_zone,
			.margin_top = state->margin.top,
			.margin_right = state->margin.right,
			.margin_bottom = state->margin.bottom,
			.margin_left = state->margin.left,
			.width = state->desired_width,
			.height = state->desired_height,
		};
		struct placement_box box;
		if (!layer_geometry_place(full, usable, &request, &box)) {
			wl_resource_post_error(wlr_surface->resource,
				ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE,
				"zero size needs both opposite anchors");
			continue;
		}
		wlr_scene_node_set_position(surface->node, box.x, box.y);
		wlr_layer_surface_v1_configure(wlr_surface, box.width, box.height);
	}
}

void layer_shell_arrange(struct output *output) {
	struct wlr_box layout_box;
	output_layout_box(output, &layout_box);
	struct placement_box full = to_placement(&layout_box);
	struct placement_box usable = full;
	if (output->server->layer_shell) {
		arrange_pass(output, &usable, &full, true);
		arrange_pass(output, &usable, &full, false);
	}
	/* X docks' struts (_NET_WM_STRUT_PARTIAL) reserve space as well. */
	view_apply_struts(output->server, &layout_box, &usable);
	struct wlr_box *old = &output->usable_area;
	bool changed = old->x != usable.x || old->y != usable.y ||
		old->width != usable.width || old->height != usable.height;
	*old = (struct wlr_box){usable.x, usable.y, usable.width, usable.height};
	if (changed) {
		view_arrange_all(output->server);
	}
}

static void arrange_surface_output(struct layer_surface *surface) {
	struct wlr_output *wlr_output = surface->wlr_surface->output;
	if (wlr_output && wlr_output->data) {
		layer_shell_arrange(wlr_output->data);
	}
}

static void handle_map(struct wl_listener *listener, void *data) {
	struct layer_surface *surface = wl_container_of(listener, surface, map);
	wlr_scene_node_set_enabled(surface->node, true);
	arrange_surface_output(surface);
	if (surface->wlr_surface->current.keyboard_interactive ==
			ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE) {
		seat_focus_surface(surface->shell->server->seat, surface->wlr_surface->surface);
	}
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct layer_surface *surface = wl_container_of(listener, surface, unmap);
	wlr_scene_node_set_enabled(surface->node, false);
	arrange_surface_output(surface);
	struct server *server = surface->shell->server;
	struct wlr_seat *wlr_seat = server->seat->wlr_seat;
	if (wlr_seat->keyboard_state.focused_surface == surface->wlr_surface->surface) {
		struct view *view = view_focused(server);
		seat_focus_surface(server->seat, view ? view->surface : NULL);
	}
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct layer_surface *surface = wl_container_of(listener, surface, commit);
	struct wlr_layer_surface_v1 *wlr_surface = surface->wlr_surface;
	if (wlr_surface->current.committed == 0 && wlr_surface->configured) {
		return;
	}
	enum scene_layer layer = scene_layers[wlr_surface->current.layer];
	struct wlr_scene_node *parent = &surface->shell->server->layers[layer]->node;
	if (surface->node->parent != parent) {
		wlr_scene_node_reparent(surface->node, parent);
	}
	arrange_surface_output(surface);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct layer_surface *surface = wl_container_of(listener, surface, destroy);
	wl_list_remove(&surface->map.link);
	wl_list_remove(&surface->unmap.link);
	wl_list_remove(&surface->destroy.link);
	wl_list_remove(&surface->commit.link);
	wl_list_remove(&surface->link);
	wlr_scene_node_destroy(surface->node);
	struct wlr_output *wlr_output = surface->wlr_surface->output;
	free(surface);
	if (wlr_output && wlr_output->data) {
		layer_shell_arrange(wlr_output->data);
	}
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct layer_shell *shell = wl_container_of(listener, shell, new_surface);
	struct wlr_layer_surface_v1 *wlr_surface = data;
	if (!wlr_surface->output) {
		struct output *output = output_focused(shell->server);
		if (!output) {
			wlr_layer_surface_v1_destroy(wlr_surface);
			return;
		}
		wlr_surface->output = output->wlr_output;
	}
	struct layer_surface *surface = zalloc(sizeof(*surface));
	surface->shell = shell;
	surface->wlr_surface = wlr_surface;
	enum scene_layer layer = scene_layers[wlr_surface->pending.layer];
	surface->node = wlr_scene_subsurface_tree_create(
		&shell->server->layers[layer]->node, wlr_surface->surface);
	wlr_scene_node_set_enabled(surface->node, false);
	surface->map.notify = handle_map;
	wl_signal_add(&wlr_surface->events.map, &surface->map);
	surface->unmap.notify = handle_unmap;
	wl_signal_add(&wlr_surface->events.unmap, &surface->unmap);
	surface->destroy.notify = handle_destroy;
	wl_signal_add(&wlr_surface->events.destroy, &surface->destroy);
	surface->commit.notify = handle_commit;
	wl_signal_add(&wlr_surface->surface->events.commit, &surface->commit);
	wl_list_insert(shell->surfaces.prev, &surface->link);
}

void layer_shell_output_destroyed(struct output *output) {
	struct layer_shell *shell = output->server->layer_shell;
	if (!shell) {
		return;
	}
	struct layer_surface *surface, *tmp;
	wl_list_for_each_safe(surface, tmp, &shell->surfaces, link) {
		if (surface->wlr_surface->output == output->wlr_output) {
			surface->wlr_surface->output = NULL;
			wlr_layer_surface_v1_destroy(surface->wlr_surface);
		}
	}
}

void layer_shell_focus_at(struct server *server, struct wlr_scene_node *node) {
	if (node->type != WLR_SCENE_NODE_SURFACE) {
		return;
	}
	struct wlr_surface *surface = wlr_scene_surface_from_node(node)->surface;
	if (!wlr_surface_is_layer_surface(surface)) {
		return;
	}
	struct wlr_layer_surface_v1 *layer = wlr_layer_surface_v1_from_wlr_surface(surface);
	if (layer && layer->current.keyboard_interactive !=
			ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE) {
		seat_focus_surface(server->seat, surface);
	}
}

void layer_shell_init(struct server *server) {
	struct layer_shell *shell = zalloc(sizeof(*shell));
	shell->server = server;
	wl_list_init(&shell->surfaces);
	shell->wlr_layer_shell = wlr_layer_shell_v1_create(server->display);
	shell->new_surface.notify = handle_new_surface;
	wl_signal_add(&shell->wlr_layer_shell->events.new_surface, &shell->new_surface);
	server->layer_shell = shell;
}

void layer_shell_finish(struct server *server) {
	struct layer_shell *shell = server->layer_shell;
	if (!shell) {
		return;
	}
	wl_list_remove(&shell->new_surface.link);
	free(shell);
	server->layer_shell = NULL;
}
