/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "capture/remote/handover.h"
#include "capture/remote/tls_record.h"
#include "capture/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "compositor/util.h"

/*
 * Viewers that oriel-gateway logged in (capture/remote/handover.h). The
 * gateway ran the RFB handshake up to SecurityResult, with VeNCrypt
 * X509Plain checked through PAM; it passes the socket with the TLS
 * state, and libvncserver goes on at ClientInit through the relay, which
 * seals and opens the records from there. Only root (the gateway) and
 * this session's own user may hand over: anyone else could bring viewers
 * in that nobody logged in.
 */

struct vnc_handover {
	struct vnc_server *vnc;
	int fd;
	char *path;
	struct wl_event_source *source;
	struct wl_list peers; /* handover_peer.link */
};

struct handover_peer {
	struct vnc_handover *handover;
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

static void reply(struct handover_peer *peer, bool ok, const char *error) {
	struct vnc_server *vnc = peer->handover->vnc;
	struct handover_reply answer = {
		.magic = HANDOVER_MAGIC, .version = HANDOVER_VERSION, .ok = ok,
		.clients = (uint32_t)vnc->n_clients, .pid = (uint32_t)getpid(),
	};
	snprintf(answer.error, sizeof(answer.error), "%s", error ? error : "");
	if (send(peer->fd, &answer, sizeof(answer), MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		wlr_log_errno(WLR_DEBUG, "VNC: answering the gateway");
	}
}

static void take_over(struct vnc_server *vnc, const char *user) {
	struct vnc_client *client, *tmp;
	wl_list_for_each_safe(client, tmp, &vnc->clients, link) {
		char why[128];
		snprintf(why, sizeof(why), "\"%s\" logged in again and took the session over",
			user);
		vnc_client_drop(client, why);
	}
}

/* A logged-in viewer's socket: to libvncserver, at ClientInit. */
static const char *take_connection(struct vnc_server *vnc,
		const struct handover_message *message, int fd) {
	if (message->flags & HANDOVER_TAKE_OVER) {
		take_over(vnc, message->user);
	}
	if (vnc->n_clients >= vnc->options->max_clients) {
		close(fd);
		return "the session has its --vnc-max-clients viewers already";
	}
	char error[160];
	struct tls_record *record = tls_record_import(&message->tls, fd, error, sizeof(error));
	if (!record) {
		wlr_log(WLR_ERROR, "VNC: the gateway's viewer %s: %s", message->peer, error);
		close(fd);
		return "its TLS state cannot be carried on";
	}
	struct tls_stream *tls = tls_stream_from_record(record);
	if (!tls) {
		close(fd);
		return "out of memory";
	}
	struct vnc_admission admission = {
		.authenticated = true,
		.minor = message->rfb_minor,
		.view_only = (message->flags & HANDOVER_VIEW_ONLY) != 0,
		.method = "X509Plain, through oriel-gateway",
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

static void handle_request(struct handover_peer *peer) {
	struct vnc_server *vnc = peer->handover->vnc;
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
		wlr_log(WLR_ERROR, "VNC: a malformed hand-over request: %s", error);
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
	const char *why = take_connection(vnc, message, fd);
	if (why) {
		wlr_log(WLR_ERROR, "VNC: cannot take the gateway's viewer %s (\"%s\"): %s",
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
	struct vnc_handover *handover = data;
	int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (conn < 0) {
		return 0;
	}
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ||
			(cred.uid != 0 && cred.uid != getuid())) {
		wlr_log(WLR_ERROR, "VNC: refused a hand-over from uid %d (pid %d): only root "
			"and this session's user may", (int)cred.uid, (int)cred.pid);
		close(conn);
		return 0;
	}
	struct handover_peer *peer = zalloc(sizeof(*peer));
	peer->handover = handover;
	peer->fd = conn;
	peer->source = wl_event_loop_add_fd(handover->vnc->server->loop, conn,
		WL_EVENT_READABLE, handle_peer_fd, peer);
	wl_list_insert(&handover->peers, &peer->link);
	return 0;
}

bool vnc_handover_init(struct vnc_server *vnc, const char *path) {
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(addr.sun_path)) {
		wlr_log(WLR_ERROR, "VNC: the hand-over socket's path is too long: %s", path);
		return false;
	}
	strcpy(addr.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	unlink(path); /* a previous session's, gone */
	/* Only this user (and root) may connect: the socket is made 0600. */
	mode_t old_mask = umask(0177);
	bool bound = fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0;
	umask(old_mask);
	if (!bound || listen(fd, 16) < 0) {
		wlr_log_errno(WLR_ERROR, "VNC: cannot listen for the gateway on %s", path);
		if (fd >= 0) {
			close(fd);
		}
		return false;
	}
	struct vnc_handover *handover = zalloc(sizeof(*handover));
	handover->vnc = vnc;
	handover->fd = fd;
	handover->path = xstrdup(path);
	wl_list_init(&handover->peers);
	handover->source = wl_event_loop_add_fd(vnc->server->loop, fd, WL_EVENT_READABLE,
		handle_listen_fd, handover);
	vnc->handover = handover;
	wlr_log(WLR_INFO, "VNC: taking viewers from oriel-gateway on %s", path);
	return true;
}

void vnc_handover_finish(struct vnc_server *vnc) {
	struct vnc_handover *handover = vnc->handover;
	if (!handover) {
		return;
	}
	struct handover_peer *peer, *tmp;
	wl_list_for_each_safe(peer, tmp, &handover->peers, link) {
		peer_destroy(peer);
	}
	wl_event_source_remove(handover->source);
	close(handover->fd);
	unlink(handover->path);
	free(handover->path);
	free(handover);
	vnc->handover = NULL;
}
