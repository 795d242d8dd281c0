/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "remote/listener_set.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * Listeners (listener_set.h): each connection becomes a guest
 * (vnc_guest.c) until it has logged in; and the files noVNC loads.
 */

static void accept_guest(void *data, int fd, bool local) {
	vnc_guest_create(data, fd, local);
}

/* The security model, as for --vnc (options.c). */
static bool beyond_loopback(void *data) {
	struct vnc_server *vnc = data;
	return vnc->accounts || (vnc->options->insecure && vnc->passwords);
}

static const char *tcp_note(void *data) {
	struct vnc_server *vnc = data;
	return vnc->http_dir ? " (RFB, WebSocket and HTTP)" : " (RFB and WebSocket)";
}

static const struct listener_set_impl listener_impl = {
	.name = "VNC",
	.option = "vnc",
	.clients = "viewers",
	.unix_sockets = true,
	.accept = accept_guest,
	.beyond_loopback = beyond_loopback,
	.tcp_note = tcp_note,
};

void vnc_listen_setup(struct vnc_server *vnc) {
	listener_set_init(&vnc->listeners, vnc->server->loop, &listener_impl, vnc);
}

int vnc_listen_start(struct vnc_server *vnc, const char *spec, char *error,
		size_t error_size) {
	return listener_set_start(&vnc->listeners, spec, error, error_size);
}

int vnc_listen_stop(struct vnc_server *vnc, const char *spec) {
	return listener_set_stop(&vnc->listeners, spec);
}

void vnc_listen_init_http(struct vnc_server *vnc) {
	const char *http = vnc->options->http;
	if (vnc->http_dir) {
		return;
	}
	if (!http) {
		struct stat st;
		if (stat("/usr/share/novnc/vnc.html", &st) == 0) {
			vnc->http_dir = xstrdup("/usr/share/novnc");
		}
	} else if (strcmp(http, "none") != 0) {
		vnc->http_dir = xstrdup(http);
	}
}

bool vnc_listen_init(struct vnc_server *vnc) {
	const struct options_vnc *options = vnc->options;
	vnc_listen_init_http(vnc);
	for (int i = 0; i < options->n_listen; i++) {
		if (!listener_set_open(&vnc->listeners, options->listen[i])) {
			return false;
		}
	}
	for (int i = 0; i < options->n_unix; i++) {
		if (!listener_set_open(&vnc->listeners, options->unix_paths[i])) {
			return false;
		}
	}
	return true;
}

void vnc_listen_finish(struct vnc_server *vnc) {
	listener_set_finish(&vnc->listeners);
	vnc_guests_finish(vnc);
	free(vnc->http_dir);
	vnc->http_dir = NULL;
}
