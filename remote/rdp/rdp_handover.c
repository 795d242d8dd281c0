/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <freerdp/error.h>
#include <wlr/util/log.h>
#include "remote/handover_server.h"
#include "remote/tls_bridge.h"
#include "remote/tls_stream.h"
#include "remote/x224.h"
#include "remote/rdp/rdp.h"
#include "remote/rdp/rdp_private.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * RDP clients that oriel-gateway logged in and redirected back to itself
 * (remote/handover.h). The gateway answered the reconnection's
 * X.224 Connection Request and did its TLS handshake; the client's
 * socket and TLS state come here. A bridge (remote/tls_bridge.h)
 * gives FreeRDP the Connection Request and a TLS of its own over a
 * socketpair, and FreeRDP serves the client as if it had connected here.
 * Its Client Info must name the user the gateway logged in, with the
 * password cookie the gateway gave the client in the redirection: a
 * routing token seen on the wire is of no use without it. No account is
 * checked here: the gateway did that.
 */

/*
 * At most this long, the loop waits for a closing client's bridge to pass
 * on what FreeRDP sent last (it takes microseconds unless the client's
 * socket is full).
 */
#define BRIDGE_DRAIN_MS 50

struct rdp_handover_login {
	char user[sizeof(((struct handover_message *)0)->user)];
	char cookie[HANDOVER_COOKIE_MAX];
	bool view_only;
	bool relayed; /* the gateway logged it in on this connection: no cookie comes */
	struct tls_bridge *bridge;
};

static void drop_all(void *data, const char *user) {
	struct rdp_server *rdp = data;
	struct rdp_peer *peer, *tmp;
	wl_list_for_each_safe(peer, tmp, &rdp->peers, link) {
		if (peer->state != RDP_PEER_SESSION || peer->closing) {
			continue;
		}
		char why[128];
		snprintf(why, sizeof(why), "\"%s\" logged in again and took the session over",
			user);
		rdp_peer_enter_freerdp(peer);
		/* The client shows why (and does not reconnect on its own). */
		freerdp_set_error_info(peer->client->context->rdp,
			ERRINFO_DISCONNECTED_BY_OTHER_CONNECTION);
		freerdp_send_error_info(peer->client->context->rdp);
		peer->client->Close(peer->client);
		rdp_peer_leave_freerdp(peer);
		rdp_peer_drop(peer, why);
	}
}

static const char *take_connection(void *data, const struct handover_message *message,
		int fd) {
	struct rdp_server *rdp = data;
	size_t request_len = x224_tpkt_length(message->pending, message->n_pending);
	if (request_len == 0 || request_len > message->n_pending) {
		close(fd);
		return "no X.224 Connection Request came along";
	}
	char error[160] = "out of memory";
	bool relayed = (message->flags & HANDOVER_RELAYED) != 0;
	struct tls_stream *tls = relayed ? tls_stream_plain(fd) :
		tls_stream_from_handover(&message->tls, fd, error, sizeof(error));
	if (!tls) {
		wlr_log(WLR_ERROR, "RDP: the gateway's client %s: %s", message->peer, error);
		close(fd);
		return "its TLS state cannot be carried on";
	}
	struct rdp_handover_login *login = zalloc(sizeof(*login));
	memcpy(login->user, message->user, sizeof(login->user));
	memcpy(login->cookie, message->cookie, sizeof(login->cookie));
	login->view_only = (message->flags & HANDOVER_VIEW_ONLY) != 0;
	login->relayed = relayed;
	if (relayed) {
		wlr_log(WLR_INFO, "RDP: oriel-gateway relays %s, which stays on its first "
			"connection, logged in as \"%s\"", message->peer, message->user);
	}
	int local_fd = -1;
	/* The bridge takes tls and fd, also when it fails. */
	login->bridge = tls_bridge_start(tls, fd, message->pending, request_len,
		message->pending + request_len, message->n_pending - request_len, &local_fd);
	if (!login->bridge) {
		rdp_handover_login_destroy(login);
		return "cannot bridge its TLS";
	}
	/* The peer takes login, also when it fails. */
	rdp_peer_create_handed_over(rdp, local_fd, message->peer, login);
	return NULL;
}

bool rdp_handover_logon_ok(struct rdp_peer *peer, const char *user, const char *password) {
	const struct rdp_handover_login *login = peer->handover;
	if (login->relayed) {
		/*
		 * Logged in on this connection (maybe on the gateway's logon screen,
		 * so the Client Info may name someone else); only the gateway can
		 * pass one here.
		 */
		return true;
	}
	size_t len = strlen(login->cookie);
	if (strcmp(user, login->user) != 0 || strlen(password) != len) {
		return false;
	}
	/* Every byte compared, whichever differs: how long it takes tells nothing. */
	unsigned char diff = 0;
	for (size_t i = 0; i < len; i++) {
		diff |= (unsigned char)(password[i] ^ login->cookie[i]);
	}
	return diff == 0;
}

bool rdp_handover_view_only(struct rdp_peer *peer) {
	return peer->handover->view_only;
}

void rdp_handover_backlog(struct rdp_peer *peer, struct link_backlog *backlog) {
	tls_bridge_backlog(peer->handover->bridge, backlog);
}

void rdp_handover_login_destroy(struct rdp_handover_login *login) {
	if (!login) {
		return;
	}
	/* FreeRDP closed its end: its last PDU (e.g. why it ends) still reaches the client. */
	tls_bridge_finish(login->bridge, BRIDGE_DRAIN_MS);
	explicit_bzero(login, sizeof(*login));
	free(login);
}

static uint32_t count_clients(void *data) {
	struct rdp_server *rdp = data;
	return (uint32_t)rdp->n_sessions;
}

static const struct handover_taker taker = {
	.take = take_connection,
	.clients = count_clients,
	.drop_all = drop_all,
};

/*
 * A hosted session starts its RDP server when the first RDP client is
 * handed over, not at start: until then its desktop framebuffer (8 MiB at
 * 1080p), captures and codec check cost the session nothing, and most
 * sessions are reached over one protocol only.
 */
static const char *take_first_connection(void *data, const struct handover_message *message,
		int fd) {
	struct server *server = data;
	struct rdp_server *rdp = rdp_server_of(server);
	if (!rdp) {
		/* Takes over from here: server_create calls rdp_handover_init. */
		rdp = rdp_server_create_unlistened(server);
	}
	if (!rdp) {
		close(fd);
		return "this session cannot serve RDP";
	}
	return take_connection(rdp, message, fd);
}

static uint32_t no_clients(void *data) {
	return 0;
}

static void drop_none(void *data, const char *user) {
}

static const struct handover_taker deferred_taker = {
	.take = take_first_connection,
	.clients = no_clients,
	.drop_all = drop_none,
};

void rdp_handover_defer(struct server *server) {
	handover_server_set_taker(server->handover, HANDOVER_RDP, &deferred_taker, server);
}

void rdp_handover_init(struct rdp_server *rdp) {
	handover_server_set_taker(rdp->server->handover, HANDOVER_RDP, &taker, rdp);
}

void rdp_handover_finish(struct rdp_server *rdp) {
	handover_server_set_taker(rdp->server->handover, HANDOVER_RDP, NULL, NULL);
}

void rdp_handover_clients_changed(struct rdp_server *rdp) {
	handover_server_clients_changed(rdp->server->handover);
}
