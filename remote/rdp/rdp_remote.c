/* SPDX-License-Identifier: MIT */
/*
 * The RDP server behind remote/server.h: the functions of rdp.h, for
 * main.c and the control API (org.oriel.Compositor.Rdp).
 */

#include "compositor/options.h"
#include "compositor/server.h"
#include "compositor/startup_error.h"
#include "remote/server.h"
#include "remote/rdp/rdp.h"

/*
 * --rdp starts the server now. Hosted by oriel-gateway without it, the
 * server starts with the first client handed over.
 */
static bool start(struct server *server) {
	if (server->options->rdp.n_listen == 0) {
		if (server->handover) {
			rdp_handover_defer(server);
		}
		return true;
	}
	if (!rdp_server_create(server)) {
		startup_error("cannot serve RDP; the messages above say why");
		return false;
	}
	return true;
}

REMOTE_SERVER_ADAPTERS(rdp)

const struct remote_server rdp_remote_server = {
	RDP_REMOTE_NAMES,
	.start = start,
	REMOTE_SERVER_ADAPTED,
};
