/* SPDX-License-Identifier: MIT */
/*
 * The VNC server behind remote/server.h: the functions of vnc.h, for
 * main.c and the control API (org.oriel.Compositor.Vnc).
 */

#include "compositor/listen_probe.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "remote/server.h"
#include "remote/vnc/vnc.h"

/* --vnc, --vnc-unix, or viewers handed over by oriel-gateway. */
static bool start(struct server *server) {
	const struct options_vnc *options = &server->options->vnc;
	if (options->n_listen + options->n_unix == 0 && !options->handover_socket) {
		return true;
	}
	if (!vnc_server_create(server)) {
		listen_probe_explain_vnc(options);
		return false;
	}
	return true;
}

REMOTE_SERVER_ADAPTERS(vnc)

const struct remote_server vnc_remote_server = {
	VNC_REMOTE_NAMES,
	.start = start,
	REMOTE_SERVER_ADAPTED,
};
