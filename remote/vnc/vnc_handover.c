/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "remote/handover_server.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/server.h"

/*
 * Viewers that oriel-gateway logged in (remote/handover_server.h).
 * The gateway ran the RFB handshake up to SecurityResult, with VeNCrypt
 * X509Plain checked through PAM; it passes the socket with the TLS state,
 * and libvncserver goes on at ClientInit through the relay, which seals
 * and opens the records from there. A browser's login is the same inside
 * WebSocket frames (HANDOVER_WEBSOCKET): libvncserver takes up the
 * framing (vnc_client.c).
 */

static void drop_all(void *data, const char *user) {
	struct vnc_server *vnc = data;
	struct vnc_client *client, *tmp;
	wl_list_for_each_safe(client, tmp, &vnc->clients, link) {
		char why[128];
		snprintf(why, sizeof(why), "\"%s\" logged in again and took the session over",
			user);
		vnc_client_drop(client, why);
	}
}

/* A logged-in viewer's socket: to libvncserver, at ClientInit. */
static const char *take_connection(void *data, const struct handover_message *message,
		int fd) {
	struct vnc_server *vnc = data;
	if (vnc->n_clients >= vnc->options->max_clients) {
		close(fd);
		return "the session has its --vnc-max-clients viewers already";
	}
	char error[160];
	struct tls_stream *tls = tls_stream_from_handover(&message->tls, fd, error,
		sizeof(error));
	if (!tls) {
		wlr_log(WLR_ERROR, "VNC: the gateway's viewer %s: %s", message->peer, error);
		close(fd);
		return "its TLS state cannot be carried on";
	}
	struct vnc_admission admission = {
		.authenticated = true,
		.minor = message->rfb_minor,
		.view_only = (message->flags & HANDOVER_VIEW_ONLY) != 0,
		.method = message->flags & HANDOVER_WEBSOCKET ?
			"Plain inside wss, through oriel-gateway" : "X509Plain, through oriel-gateway",
		.websocket = (message->flags & HANDOVER_WEBSOCKET) != 0,
		.pending = message->pending,
		.n_pending = message->n_pending,
	};
	vnc_auth_printable(message->user, admission.user, sizeof(admission.user));
	/* The relay takes fd and tls, also when it fails. */
	if (!vnc_client_open(vnc, fd, tls, &admission)) {
		return "libvncserver did not take the viewer";
	}
	return NULL;
}

static uint32_t count_clients(void *data) {
	struct vnc_server *vnc = data;
	return (uint32_t)vnc->n_clients;
}

static const struct handover_taker taker = {
	.take = take_connection,
	.clients = count_clients,
	.drop_all = drop_all,
};

void vnc_handover_init(struct vnc_server *vnc) {
	handover_server_set_taker(vnc->server->handover, HANDOVER_VNC, &taker, vnc);
}

void vnc_handover_finish(struct vnc_server *vnc) {
	handover_server_set_taker(vnc->server->handover, HANDOVER_VNC, NULL, NULL);
}
