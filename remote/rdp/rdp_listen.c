/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include "remote/listener_set.h"
#include "remote/rdp/rdp.h"
#include "remote/rdp/rdp_private.h"
#include "compositor/options.h"
#include "compositor/server.h"

/*
 * Listeners (listener_set.h): each connection becomes a peer that is a
 * guest until its logon was checked (rdp_peer.c).
 */

static void accept_peer(void *data, int fd, bool local) {
	rdp_peer_create(data, fd);
}

static bool beyond_loopback(void *data) {
	struct rdp_server *rdp = data;
	return rdp->accounts;
}

static const struct listener_set_impl listener_impl = {
	.name = "RDP",
	.option = "rdp",
	.clients = "clients",
	.accept = accept_peer,
	.beyond_loopback = beyond_loopback,
};

void rdp_listen_setup(struct rdp_server *rdp) {
	listener_set_init(&rdp->listeners, rdp->server->loop, &listener_impl, rdp);
}

bool rdp_listen_init(struct rdp_server *rdp) {
	for (int i = 0; i < rdp->options->n_listen; i++) {
		if (!listener_set_open(&rdp->listeners, rdp->options->listen[i])) {
			return false;
		}
	}
	return true;
}

int rdp_listen_start(struct rdp_server *rdp, const char *spec, char *error,
		size_t error_size) {
	return listener_set_start(&rdp->listeners, spec, error, error_size);
}

int rdp_listen_stop(struct rdp_server *rdp, const char *spec) {
	return listener_set_stop(&rdp->listeners, spec);
}

void rdp_listen_finish(struct rdp_server *rdp) {
	listener_set_finish(&rdp->listeners);
}
