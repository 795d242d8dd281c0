#include <stdlib.h>
#include <sys/types.h>
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
#include "compositor/util.h"
#include "compositor/virtual_devices.h"

struct privileged_globals {
	struct virtual_devices *virtual_devices;
	struct output_management *output_management;
};

/*
 * libwayland asks this for every global a client's registry would list,
 * and again when the client binds one, so a hidden global cannot be bound
 * by guessing its name.
 */
static bool global_filter(const struct wl_client *client,
		const struct wl_global *global, void *data) {
	struct server *server = data;
	const struct wl_interface *interface = wl_global_get_interface(global);
	enum config_privilege privilege;
	if (!privileged_policy_interface(interface->name, &privilege)) {
		return true;
	}
	pid_t pid = 0;
	wl_client_get_credentials((struct wl_client *)client, &pid, NULL, NULL);
	char exe[EXE_PATH_MAX];
	const char *why;
	if (!exe_path_of_pid(pid, exe, &why)) {
		wlr_log(WLR_DEBUG, "hiding %s from client pid %d: %s",
			interface->name, (int)pid, why);
		return false;
	}
	bool allowed = privileged_policy_allows(&server->options->config, privilege, exe);
	wlr_log(WLR_DEBUG, "%s %s to %s (pid %d)", allowed ? "showing" : "hiding",
		interface->name, exe, (int)pid);
	return allowed;
}

void privileged_globals_init(struct server *server) {
	struct privileged_globals *globals = zalloc(sizeof(*globals));
	server->privileged_globals = globals;

	wlr_screencopy_manager_v1_create(server->display);
	/* Needs dma-bufs, so it only works with a GPU; the policy is the same. */
	wlr_export_dmabuf_manager_v1_create(server->display);
	wlr_data_control_manager_v1_create(server->display);
	wlr_gamma_control_manager_v1_create(server->display);
	globals->virtual_devices = virtual_devices_create(server);
	globals->output_management = output_management_create(server);

	wl_display_set_global_filter(server->display, global_filter, server);
}

void privileged_globals_finish(struct server *server) {
	struct privileged_globals *globals = server->privileged_globals;
	if (!globals) {
		return;
	}
	virtual_devices_destroy(globals->virtual_devices);
	output_management_destroy(globals->output_management);
	free(globals);
	server->privileged_globals = NULL;
}
