/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_data_control_v1.h>
#include <wlr/types/wlr_export_dmabuf_v1.h>
#include <wlr/types/wlr_gamma_control_v1.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/util/log.h>
#include "compositor/exe_path.h"
#include "compositor/output_management.h"
#include "compositor/privileged_globals.h"
#include "compositor/privileged_policy.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/virtual_devices.h"

struct privileged_globals {
	struct server *server;
	struct virtual_devices *virtual_devices;
	struct output_management *output_management;
	struct wl_listener client_created;
};

/*
 * What one client may see, decided when it connects: its executable is
 * read once, so its registry and its binds get the same answer, and a
 * process that execs another program later does not change it.
 */
struct privileged_client {
	unsigned allowed; /* bit (1 << enum config_privilege) */
	struct wl_listener destroy;
};

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct privileged_client *privileged = wl_container_of(listener, privileged, destroy);
	wl_list_remove(&privileged->destroy.link);
	free(privileged);
}

static void handle_client_created(struct wl_listener *listener, void *data) {
	struct privileged_globals *globals =
		wl_container_of(listener, globals, client_created);
	struct wl_client *client = data;
	struct privileged_client *privileged = zalloc(sizeof(*privileged));
	privileged->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(client, &privileged->destroy);

	pid_t pid = 0;
	uid_t uid = (uid_t)-1;
	wl_client_get_credentials(client, &pid, &uid, NULL);
	char exe[EXE_PATH_MAX];
	const char *why = "it runs as another user";
	/* As for the control API: the allowed program, run by oriel's user. */
	if (uid != geteuid() || !exe_path_of_pid(pid, exe, &why)) {
		wlr_log(WLR_DEBUG, "client pid %d gets no privileged protocol: %s",
			(int)pid, why);
		return;
	}
	const struct oriel_config *config = &globals->server->options->config;
	for (int i = 0; i < CONFIG_PRIVILEGE_COUNT; i++) {
		if (privileged_policy_allows(config, (enum config_privilege)i, exe)) {
			privileged->allowed |= 1u << i;
			wlr_log(WLR_INFO, "%s (pid %d) may use %s", exe, (int)pid,
				config_privilege_name((enum config_privilege)i));
		}
	}
}

/*
 * libwayland asks this for every global a client's registry would list,
 * and again when the client binds one, so a hidden global cannot be bound
 * by guessing its name.
 */
static bool global_filter(const struct wl_client *client,
		const struct wl_global *global, void *data) {
	const struct wl_interface *interface = wl_global_get_interface(global);
	enum config_privilege privilege;
	if (!privileged_policy_interface(interface->name, &privilege)) {
		return true;
	}
	struct wl_listener *listener = wl_client_get_destroy_listener(
		(struct wl_client *)client, handle_client_destroy);
	if (!listener) {
		return false;
	}
	struct privileged_client *privileged = wl_container_of(listener, privileged, destroy);
	return privileged->allowed & (1u << privilege);
}

void privileged_globals_init(struct server *server) {
	struct privileged_globals *globals = zalloc(sizeof(*globals));
	globals->server = server;
	server->privileged_globals = globals;
	globals->client_created.notify = handle_client_created;
	wl_display_add_client_created_listener(server->display, &globals->client_created);

	wlr_screencopy_manager_v1_create(server->display);
	/* Needs dma-bufs, so it only works with a GPU; the policy is the same. */
	wlr_export_dmabuf_manager_v1_create(server->display);
	wlr_data_control_manager_v1_create(server->display);
	wlr_gamma_control_manager_v1_create(server->display);
	globals->virtual_devices = virtual_devices_create(server);
	globals->output_management = output_management_create(server);

	wl_display_set_global_filter(server->display, global_filter, NULL);
}

void privileged_globals_finish(struct server *server) {
	struct privileged_globals *globals = server->privileged_globals;
	if (!globals) {
		return;
	}
	wl_list_remove(&globals->client_created.link);
	virtual_devices_destroy(globals->virtual_devices);
	output_management_destroy(globals->output_management);
	free(globals);
	server->privileged_globals = NULL;
}
