/* SPDX-License-Identifier: MIT */
/*
 * The remote-access protocols oriel knows, and the hand-over socket they
 * share: the one place that asks which protocols were built in.
 */

#include "oriel-config.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "compositor/startup_error.h"
#include "remote/handover_server.h"
#include "remote/remote_servers.h"
#include "remote/rdp/rdp.h"
#include "remote/vnc/vnc.h"

#if !HAVE_VNC || !HAVE_RDP
/* Built without a protocol, oriel refuses its options rather than ignore them. */
static bool refuse(const char *name, const char *command) {
	startup_error("oriel was built without %s support; "
		"drop the --%s options or rebuild with -D%s=enabled", name, command, command);
	return false;
}
#endif

#if !HAVE_VNC
static bool refuse_vnc(struct server *server) {
	const struct options_vnc *options = &server->options->vnc;
	if (options->n_listen + options->n_unix == 0 && !options->handover_socket) {
		return true;
	}
	return refuse("VNC", "vnc");
}

static const struct remote_server vnc_not_built = {
	VNC_REMOTE_NAMES,
	.start = refuse_vnc,
};
#endif

#if !HAVE_RDP
static bool refuse_rdp(struct server *server) {
	return server->options->rdp.n_listen == 0 || refuse("RDP", "rdp");
}

static const struct remote_server rdp_not_built = {
	RDP_REMOTE_NAMES,
	.start = refuse_rdp,
};
#endif

const struct remote_server *const remote_servers[REMOTE_SERVERS] = {
#if HAVE_VNC
	&vnc_remote_server,
#else
	&vnc_not_built,
#endif
#if HAVE_RDP
	&rdp_remote_server,
#else
	&rdp_not_built,
#endif
};

bool remote_servers_start(struct server *server) {
#if HAVE_VNC || HAVE_RDP
	const struct options_vnc *options = &server->options->vnc;
	if (options->handover_socket) {
		/* Hosted by oriel-gateway: its VNC and RDP clients come through here. */
		server->handover = handover_server_create(server->display, server->loop,
			options->handover_socket, options->exit_without_clients);
		if (!server->handover) {
			startup_error("cannot take clients from oriel-gateway on %s",
				options->handover_socket);
			return false;
		}
	}
#endif
	for (size_t i = 0; i < REMOTE_SERVERS; i++) {
		if (!remote_servers[i]->start(server)) {
			return false;
		}
	}
	return true;
}

void remote_servers_stop(struct server *server) {
#if HAVE_VNC || HAVE_RDP
	handover_server_destroy(server->handover);
	server->handover = NULL; /* the servers below look */
#endif
	for (size_t i = 0; i < REMOTE_SERVERS; i++) {
		const struct remote_server *remote = remote_servers[i];
		if (remote->built) {
			/* Also one started for a hand-over (rdp_handover_defer). */
			remote->destroy(remote->of(server));
		}
	}
}
