/* SPDX-License-Identifier: MIT */
/*
 * org.oriel.Compositor.Rdp: RDP listeners and clients at run time, through
 * control_remote_server.c, with the RDP server's functions (remote/rdp/rdp.h).
 */

#include "oriel-config.h"
#include "remote/rdp/rdp.h"
#include "control/control_private.h"

#if HAVE_RDP

static void *of(struct server *server) {
	return rdp_server_of(server);
}

static void *create_unlistened(struct server *server) {
	return rdp_server_create_unlistened(server);
}

static void destroy(void *rdp) {
	rdp_server_destroy(rdp);
}

static int listen_start(void *rdp, const char *spec, char *why, size_t why_size) {
	return rdp_listen_start(rdp, spec, why, why_size);
}

static int listen_stop(void *rdp, const char *spec) {
	return rdp_listen_stop(rdp, spec);
}

static size_t list_clients(void *rdp, struct remote_client_info *out, size_t max) {
	return rdp_list_clients(rdp, out, max);
}

static bool disconnect(void *rdp, uint64_t id) {
	return rdp_disconnect_client(rdp, id);
}

static void certificate(void *rdp, const char **path, const char **sha256) {
	rdp_certificate(rdp, path, sha256);
}

#endif

void control_rdp_init(struct control *control) {
	control->rdp = (struct control_remote_server){
		.control = control,
		.name = "RDP",
		.command = "rdp",
		.address_form = "[ADDR:]PORT",
		.client_noun = "client",
#if HAVE_RDP
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
