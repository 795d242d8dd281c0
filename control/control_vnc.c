/* SPDX-License-Identifier: MIT */
/*
 * org.oriel.Compositor.Vnc: VNC listeners and viewers at run time, through
 * control_remote_server.c, with the VNC server's functions (remote/vnc/vnc.h).
 */

#include "oriel-config.h"
#include "remote/vnc/vnc.h"
#include "control/control_private.h"

#if HAVE_VNC

static void *of(struct server *server) {
	return vnc_server_of(server);
}

static void *create_unlistened(struct server *server) {
	return vnc_server_create_unlistened(server);
}

static void destroy(void *vnc) {
	vnc_server_destroy(vnc);
}

static int listen_start(void *vnc, const char *spec, char *why, size_t why_size) {
	return vnc_listen_start(vnc, spec, why, why_size);
}

static int listen_stop(void *vnc, const char *spec) {
	return vnc_listen_stop(vnc, spec);
}

static size_t list_clients(void *vnc, struct remote_client_info *out, size_t max) {
	return vnc_list_clients(vnc, out, max);
}

static bool disconnect(void *vnc, uint64_t id) {
	return vnc_disconnect_client(vnc, id);
}

static void certificate(void *vnc, const char **path, const char **sha256) {
	vnc_certificate(vnc, path, sha256);
}

#endif

void control_vnc_init(struct control *control) {
	control->vnc = (struct control_remote_server){
		.control = control,
		.name = "VNC",
		.command = "vnc",
		.address_form = "[ADDR:]PORT or a Unix socket /PATH",
		.client_noun = "viewer",
#if HAVE_VNC
		.built = true,
		.of = of,
		.create_unlistened = create_unlistened,
		.destroy = destroy,
		.listen_start = listen_start,
		.listen_stop = listen_stop,
		.list_clients = list_clients,
		.disconnect = disconnect,
		.certificate = certificate,
#endif
	};
}
