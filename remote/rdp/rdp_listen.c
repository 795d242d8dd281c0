/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp.h"
#include "remote/rdp/rdp_private.h"
#include "remote/tcp_listen.h"
#include "compositor/config.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * Listeners: oriel listens and accepts itself; each connection becomes a
 * peer that is a guest until its logon was checked (rdp_peer.c).
 */

struct rdp_listener {
	struct rdp_server *rdp;
	int fd;
	struct config_vnc_address address; /* as asked for, to stop it by */
	struct wl_event_source *source;
	struct wl_list link;
};

static int handle_listen_fd(int fd, uint32_t mask, void *data) {
	struct rdp_listener *listener = data;
	int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (conn < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			wlr_log_errno(WLR_ERROR, "RDP: accept");
		}
		return 0;
	}
	rdp_peer_create(listener->rdp, conn);
	return 0;
}

static void add_listener(struct rdp_server *rdp, int fd,
		const struct config_vnc_address *address) {
	struct rdp_listener *listener = zalloc(sizeof(*listener));
	listener->rdp = rdp;
	listener->fd = fd;
	listener->address = *address;
	listener->source = wl_event_loop_add_fd(rdp->server->loop, fd, WL_EVENT_READABLE,
		handle_listen_fd, listener);
	wl_list_insert(rdp->listeners.prev, &listener->link);
}

static bool listen_tcp(struct rdp_server *rdp, const char *spec) {
	struct config_vnc_address address;
	if (!config_parse_vnc_address(spec, &address)) {
		wlr_log(WLR_ERROR, "RDP: bad listen address %s", spec);
		return false;
	}
	if (!rdp->accounts && !config_vnc_address_is_loopback(&address)) {
		wlr_log(WLR_ERROR, "RDP: refusing %s without accounts (not loopback)", spec);
		return false;
	}
	int fds[8];
	char error[256] = "";
	int n = remote_listen_tcp(spec, fds, 8, error, sizeof(error));
	if (error[0]) {
		wlr_log(WLR_ERROR, "RDP: %s", error);
	}
	for (int i = 0; i < n; i++) {
		add_listener(rdp, fds[i], &address);
	}
	if (n > 0) {
		wlr_log(WLR_INFO, "RDP: listening on %s:%d", address.host, address.port);
	}
	return n > 0;
}

bool rdp_listen_init(struct rdp_server *rdp) {
	for (int i = 0; i < rdp->options->n_listen; i++) {
		if (!listen_tcp(rdp, rdp->options->listen[i])) {
			return false;
		}
	}
	return true;
}

static void listener_destroy(struct rdp_listener *listener) {
	if (listener->source) {
		wl_event_source_remove(listener->source);
	}
	close(listener->fd);
	wl_list_remove(&listener->link);
	free(listener);
}

static bool listener_matches(const struct rdp_listener *listener,
		const struct config_vnc_address *address) {
	return listener->address.port == address->port &&
		strcmp(listener->address.host, address->host) == 0;
}

int rdp_listen_start(struct rdp_server *rdp, const char *spec, char *error,
		size_t error_size) {
	struct config_vnc_address address;
	if (!config_parse_vnc_address(spec, &address)) {
		snprintf(error, error_size, "bad RDP address (want [ADDR:]PORT)");
		return -EINVAL;
	}
	struct rdp_listener *listener;
	wl_list_for_each(listener, &rdp->listeners, link) {
		if (listener_matches(listener, &address)) {
			snprintf(error, error_size, "already listening there");
			return -EEXIST;
		}
	}
	if (!rdp->accounts && !config_vnc_address_is_loopback(&address)) {
		snprintf(error, error_size, "refusing to serve RDP on %s without accounts: it "
			"is not a loopback address; start oriel with --rdp-users FILE or --rdp-pam",
			address.host);
		return -EPERM;
	}
	if (!listen_tcp(rdp, spec)) {
		snprintf(error, error_size, "cannot listen there (oriel's log says why)");
		return -EADDRNOTAVAIL;
	}
	return 0;
}

int rdp_listen_stop(struct rdp_server *rdp, const char *spec) {
	struct config_vnc_address address;
	if (!config_parse_vnc_address(spec, &address)) {
		return -EINVAL;
	}
	int n = 0;
	struct rdp_listener *listener, *tmp;
	wl_list_for_each_safe(listener, tmp, &rdp->listeners, link) {
		if (listener_matches(listener, &address)) {
			listener_destroy(listener);
			n++;
		}
	}
	if (n == 0) {
		return -ENOENT;
	}
	wlr_log(WLR_INFO, "RDP: stopped listening on %s (clients stay connected)", spec);
	return 0;
}

void rdp_listen_finish(struct rdp_server *rdp) {
	struct rdp_listener *listener, *tmp;
	wl_list_for_each_safe(listener, tmp, &rdp->listeners, link) {
		listener_destroy(listener);
	}
}
