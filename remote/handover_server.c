/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <gnutls/gnutls.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>
#include "remote/handover_server.h"
#include "common/util.h"

/*
 * Clients that oriel-gateway logged in (remote/handover.h), on
 * the socket of --handover-socket. Only root (the gateway) and this
 * session's own user may hand over: anyone else could bring clients in
 * that nobody logged in.
 */

#define PROTOCOLS 3 /* enum handover_protocol, and 0 */

struct taker {
	const struct handover_taker *impl;
	void *data;
};

struct handover_server {
	struct wl_display *display;
	struct wl_event_loop *loop;
	int exit_without_clients;
	struct wl_event_source *unviewed_timer;
	int fd;
	char *path;
	struct wl_event_source *source;
	struct wl_list peers; /* handover_peer.link */
	struct taker takers[PROTOCOLS];
};

struct handover_peer {
	struct handover_server *server;
	int fd;
	struct wl_event_source *source;
	struct wl_list link;
};

static void peer_destroy(struct handover_peer *peer) {
	wl_event_source_remove(peer->source);
	close(peer->fd);
	wl_list_remove(&peer->link);
	free(peer);
}

static uint32_t count_clients(struct handover_server *server) {
	uint32_t n = 0;
	for (int i = 0; i < PROTOCOLS; i++) {
		if (server->takers[i].impl) {
			n += server->takers[i].impl->clients(server->takers[i].data);
		}
	}
	return n;
}

static void reply(struct handover_peer *peer, bool ok, const char *error) {
	struct handover_reply answer = {
		.magic = HANDOVER_MAGIC, .version = HANDOVER_VERSION, .ok = ok,
		.clients = count_clients(peer->server), .pid = (uint32_t)getpid(),
	};
	snprintf(answer.error, sizeof(answer.error), "%s", error ? error : "");
	if (send(peer->fd, &answer, sizeof(answer), MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		wlr_log_errno(WLR_DEBUG, "hand-over: answering the gateway");
	}
}

static const char *take_connection(struct handover_server *server,
		const struct handover_message *message, int fd) {
	const struct taker *taker = &server->takers[message->protocol];
	if (!taker->impl) {
		close(fd);
		return message->protocol == HANDOVER_RDP ?
			"this session serves no RDP" : "this session serves no VNC";
	}
	if (message->flags & HANDOVER_TAKE_OVER) {
		/* Her other clients go, whichever protocol they came by. */
		for (int i = 0; i < PROTOCOLS; i++) {
			if (server->takers[i].impl) {
				server->takers[i].impl->drop_all(server->takers[i].data, message->user);
			}
		}
	}
	return taker->impl->take(taker->data, message, fd);
}

static void handle_request(struct handover_peer *peer) {
	struct handover_server *server = peer->server;
	struct handover_message *message = zalloc(sizeof(*message));
	int fd;
	ssize_t n = handover_receive(peer->fd, message, &fd);
	if (n <= 0) {
		if (n == 0 || errno != EAGAIN) {
			peer_destroy(peer);
		}
		free(message);
		return;
	}
	char error[160];
	if (!handover_message_check(message, (size_t)n, fd >= 0, error, sizeof(error))) {
		wlr_log(WLR_ERROR, "hand-over: a malformed request: %s", error);
		if (fd >= 0) {
			close(fd);
		}
		reply(peer, false, error);
		free(message);
		return;
	}
	if (message->request == HANDOVER_STATUS) {
		reply(peer, true, NULL);
		free(message);
		return;
	}
	const char *why = take_connection(server, message, fd);
	if (why) {
		wlr_log(WLR_ERROR, "hand-over: cannot take the gateway's client %s (\"%s\"): %s",
			message->peer, message->user, why);
	}
	reply(peer, why == NULL, why);
	gnutls_memset(message, 0, sizeof(*message)); /* its keys */
	free(message);
}

static int handle_peer_fd(int fd, uint32_t mask, void *data) {
	struct handover_peer *peer = data;
	if (mask & WL_EVENT_READABLE) {
		handle_request(peer);
	} else if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		peer_destroy(peer);
	}
	return 0;
}

static int handle_listen_fd(int fd, uint32_t mask, void *data) {
	struct handover_server *server = data;
	int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (conn < 0) {
		return 0;
	}
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ||
			(cred.uid != 0 && cred.uid != getuid())) {
		wlr_log(WLR_ERROR, "hand-over: refused one from uid %d (pid %d): only root "
			"and this session's user may", (int)cred.uid, (int)cred.pid);
		close(conn);
		return 0;
	}
	struct handover_peer *peer = zalloc(sizeof(*peer));
	peer->server = server;
	peer->fd = conn;
	peer->source = wl_event_loop_add_fd(server->loop, conn,
		WL_EVENT_READABLE, handle_peer_fd, peer);
	wl_list_insert(&server->peers, &peer->link);
	return 0;
}

static int handle_unviewed(void *data) {
	struct handover_server *server = data;
	wlr_log(WLR_INFO, "hand-over: no client for %d s (--exit-without-clients): ending the "
		"session", server->exit_without_clients);
	wl_display_terminate(server->display);
	return 0;
}

void handover_server_clients_changed(struct handover_server *server) {
	if (!server || !server->unviewed_timer) {
		return;
	}
	wl_event_source_timer_update(server->unviewed_timer, count_clients(server) > 0 ? 0 :
		server->exit_without_clients * 1000);
}

struct handover_server *handover_server_create(struct wl_display *display,
		struct wl_event_loop *loop, const char *path, int exit_without_clients) {
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(addr.sun_path)) {
		wlr_log(WLR_ERROR, "hand-over: the socket's path is too long: %s", path);
		return NULL;
	}
	strcpy(addr.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	unlink(path); /* a previous session's, gone */
	/* Only this user (and root) may connect: the socket is made 0600. */
	mode_t old_mask = umask(0177);
	bool bound = fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0;
	umask(old_mask);
	if (!bound || listen(fd, 16) < 0) {
		wlr_log_errno(WLR_ERROR, "hand-over: cannot listen for the gateway on %s", path);
		if (fd >= 0) {
			close(fd);
		}
		return NULL;
	}
	struct handover_server *server = zalloc(sizeof(*server));
	server->display = display;
	server->loop = loop;
	server->exit_without_clients = exit_without_clients;
	if (exit_without_clients > 0) {
		server->unviewed_timer = wl_event_loop_add_timer(loop, handle_unviewed, server);
		handover_server_clients_changed(server);
	}
	server->fd = fd;
	server->path = xstrdup(path);
	wl_list_init(&server->peers);
	server->source = wl_event_loop_add_fd(loop, fd, WL_EVENT_READABLE,
		handle_listen_fd, server);
	wlr_log(WLR_INFO, "hand-over: taking clients from oriel-gateway on %s", path);
	return server;
}

void handover_server_set_taker(struct handover_server *server,
		enum handover_protocol protocol, const struct handover_taker *taker, void *data) {
	if (!server || (int)protocol <= 0 || (int)protocol >= PROTOCOLS) {
		return;
	}
	server->takers[protocol] = (struct taker){ taker, data };
}

void handover_server_destroy(struct handover_server *server) {
	if (!server) {
		return;
	}
	struct handover_peer *peer, *tmp;
	wl_list_for_each_safe(peer, tmp, &server->peers, link) {
		peer_destroy(peer);
	}
	if (server->unviewed_timer) {
		wl_event_source_remove(server->unviewed_timer);
	}
	wl_event_source_remove(server->source);
	close(server->fd);
	unlink(server->path);
	free(server->path);
	free(server);
}
