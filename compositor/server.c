/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/backend.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_foreign_toplevel_management_v1.h>
#include <wlr/types/wlr_idle.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_presentation_time.h>
#include <wlr/types/wlr_primary_selection_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/util/log.h>
#include "compositor/backend.h"
#include "compositor/decoration_protocols.h"
#include "compositor/layer_shell.h"
#include "compositor/output.h"
#include "compositor/privileged_globals.h"
#include "compositor/protocols.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/startup_error.h"
#include "compositor/switcher.h"
#include "compositor/xdg_shell.h"

static void create_scene(struct server *server) {
	server->scene = wlr_scene_create();
	for (int i = 0; i < LAYER_COUNT; i++) {
		server->layers[i] = wlr_scene_tree_create(&server->scene->node);
	}
	for (int i = 0; i < VIEW_BAND_COUNT; i++) {
		server->view_bands[i] = wlr_scene_tree_create(&server->layers[LAYER_VIEWS]->node);
	}
	wlr_scene_attach_output_layout(server->scene, server->output_layout);
	server->presentation = wlr_presentation_create(server->display, server->backend);
	wlr_scene_set_presentation(server->scene, server->presentation);
}

bool server_init(struct server *server, const struct oriel_options *options) {
	server->options = options;
	wl_list_init(&server->views);
	wl_signal_init(&server->events_stacking_changed);
	wl_signal_init(&server->events_view_moved);
	server->display = wl_display_create();
	server->loop = wl_display_get_event_loop(server->display);
	if (!backend_init(server)) {
		return false;
	}

	server->compositor = wlr_compositor_create(server->display, server->renderer);
	wlr_data_device_manager_create(server->display);
	wlr_primary_selection_v1_device_manager_create(server->display);
	wlr_viewporter_create(server->display);
	server->output_layout = wlr_output_layout_create();
	wlr_xdg_output_manager_v1_create(server->display, server->output_layout);
	server->idle = wlr_idle_create(server->display);
	server->foreign_toplevels = wlr_foreign_toplevel_manager_v1_create(server->display);

	create_scene(server);
	output_init_server(server);
	server->seat = seat_create(server);
	if (!server->seat) {
		startup_error("cannot compile the keyboard layout; fix [keyboard] in the "
			"config or the XKB_DEFAULT_* variables");
		return false;
	}
	server->switcher = switcher_create(server);
	xdg_shell_init(server);
	decoration_protocols_init(server);
	layer_shell_init(server);
	protocols_init(server);
	privileged_globals_init(server);
	return true;
}

bool server_start(struct server *server) {
	server->socket = wl_display_add_socket_auto(server->display);
	if (!server->socket) {
		const char *runtime = getenv("XDG_RUNTIME_DIR");
		startup_error("cannot create a Wayland socket in XDG_RUNTIME_DIR (%s); "
			"point it at a writable directory of yours",
			runtime && runtime[0] ? runtime : "not set");
		return false;
	}
	backend_add_headless_outputs(server);
	if (!wlr_backend_start(server->backend)) {
		startup_error("cannot start the display backend; see the messages above, "
			"or use --backend headless");
		return false;
	}
	setenv("WAYLAND_DISPLAY", server->socket, 1);
	wlr_log(WLR_INFO, "Running on WAYLAND_DISPLAY=%s", server->socket);
	return true;
}

void server_finish(struct server *server) {
	if (!server->display) {
		return;
	}
	wl_display_destroy_clients(server->display);
	privileged_globals_finish(server);
	protocols_finish(server);
	layer_shell_finish(server);
	decoration_protocols_finish(server);
	xdg_shell_finish(server);
	switcher_destroy(server->switcher);
	server->switcher = NULL;
	seat_destroy(server->seat);
	server->seat = NULL;
	if (server->backend) {
		output_finish_server(server);
		wlr_backend_destroy(server->backend);
	}
	/* The scene listens to the layout: the layout goes first. */
	wlr_output_layout_destroy(server->output_layout);
	if (server->scene) {
		wlr_scene_node_destroy(&server->scene->node);
	}
	wlr_allocator_destroy(server->allocator);
	wlr_renderer_destroy(server->renderer);
	wl_display_destroy(server->display);
	server->display = NULL;
}
