/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "remote/handover.h"
#include "remote/rdp_pdu.h"
#include "remote/tls_flow.h"
#include "remote/tls_stream.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_rdp_relay.h"
#include "gateway/gateway_rdp_tickets.h"

/*
 * A client that cannot follow a Server Redirection stays on its first
 * connection: the worker keeps its TLS and passes plaintext to her
 * session over a socketpair whose other end goes with the hand-over
 * (HANDOVER_RELAYED). There, a TLS bridge walks the session's FreeRDP
 * through what the client sent up to its Client Info; FreeRDP's answers
 * up to there are dropped here, since the client had the gateway's.
 * Then bytes only, both ways, until either side closes.
 */

/* What one direction of the relay drops before it passes bytes on. */
struct relay_filter {
	struct rdp_pdu_counter *skip; /* the session's answers the client had */
	unsigned skip_count;
	/* The client's PDUs are dropped until the session's first is passed on. */
	struct rdp_pdu_counter *hold;
	const bool *released;
};

static bool relay_received(struct tls_flow *f, void *data) {
	struct relay_filter *filter = data;
	if (filter->hold && (!*filter->released || filter->hold->left ||
			filter->hold->header_len)) {
		/* Stale input from the logon screen: to its PDU's end. */
		size_t n = *filter->released ? rdp_pdu_counter_feed(filter->hold, f->buf, f->len,
			filter->hold->whole + 1) : rdp_pdu_counter_feed(filter->hold, f->buf, f->len,
			UINT_MAX);
		if (filter->hold->broken) {
			return false;
		}
		f->off = n;
		if (f->off == f->len) {
			return true;
		}
	}
	if (filter->skip && filter->skip->whole < filter->skip_count) {
		f->off = rdp_pdu_counter_feed(filter->skip, f->buf, f->len, filter->skip_count);
		if (filter->skip->broken) {
			return false;
		}
	}
	return true;
}

static void pump(struct tls_stream *client, int client_fd, int session_fd,
		unsigned skip_count, bool hold_client) {
	struct tls_stream *session = tls_stream_plain(session_fd);
	struct tls_flow *up = calloc(1, sizeof(*up)), *down = calloc(1, sizeof(*down));
	struct rdp_pdu_counter skip = {0}, hold = {0};
	if (!session || !up || !down) {
		goto out;
	}
	struct relay_filter up_filter = { .hold = hold_client ? &hold : NULL,
		.released = &down->passed };
	struct relay_filter down_filter = { .skip = &skip, .skip_count = skip_count };
	*up = (struct tls_flow){ .from = client, .to = session,
		.received = relay_received, .data = &up_filter };
	*down = (struct tls_flow){ .from = session, .to = client,
		.received = relay_received, .data = &down_filter };
	fcntl(session_fd, F_SETFL, O_NONBLOCK);
	fcntl(client_fd, F_SETFL, fcntl(client_fd, F_GETFL) | O_NONBLOCK);
	while (tls_flow_move(up) && tls_flow_move(down)) {
		struct pollfd fds[2] = {
			{ .fd = client_fd,
			  .events = (up->want_read ? POLLIN : 0) | (down->want_write ? POLLOUT : 0) },
			{ .fd = session_fd,
			  .events = (down->want_read ? POLLIN : 0) | (up->want_write ? POLLOUT : 0) },
		};
		if (poll(fds, 2, -1) < 0 && errno != EINTR) {
			break;
		}
	}
out:
	if (up) {
		explicit_bzero(up, sizeof(*up));
	}
	free(up);
	free(down);
	tls_stream_destroy(session);
}

void gateway_rdp_relay(struct gateway_guest *guest, struct tls_stream *client,
		int client_fd, const uint8_t *request, size_t request_len,
		struct gateway_rdp_replay *replay, const char *token, char *why, size_t why_size) {
	struct gateway_ticket ticket = { .sock = -1 };
	struct handover_message *message = calloc(1, sizeof(*message));
	int pair[2] = { -1, -1 };
	if (!message || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0) {
		snprintf(why, why_size, "out of memory");
		goto out;
	}
	if (request_len + replay->len > HANDOVER_PENDING_MAX ||
			!rdp_pdu_wipe_client_password(replay->client, replay->len)) {
		snprintf(why, why_size, "its login cannot be passed on to its session");
		goto out;
	}
	if (!gateway_guest_redeem(guest, token, &ticket, why, why_size)) {
		goto out;
	}
	memcpy(message->pending, request, request_len);
	memcpy(message->pending + request_len, replay->client, replay->len);
	message->n_pending = (uint32_t)(request_len + replay->len);
	message->protocol = HANDOVER_RDP;
	message->flags = ticket.flags | HANDOVER_RELAYED;
	memcpy(message->user, ticket.user, sizeof(message->user));
	snprintf(message->cookie, sizeof(message->cookie), "%s", ticket.cookie);
	bool handed = gateway_guest_hand_over_fd(guest, ticket.sock, message, pair[1], why,
		why_size);
	close(pair[1]);
	pair[1] = -1;
	if (!handed) {
		goto out;
	}
	why[0] = '\0';
	char printable[128];
	gateway_printable(ticket.user, printable, sizeof(printable));
	gateway_log("RDP: \"%s\" from %s is relayed to its session", printable, guest->host);
	gateway_guest_relaying(guest);
	pump(client, client_fd, pair[0], replay->answers, replay->hold_client);
	gateway_log_debug("RDP: the relay of %s ended", guest->host);
out:
	if (message) {
		explicit_bzero(message, sizeof(*message));
		free(message);
	}
	for (int i = 0; i < 2; i++) {
		if (pair[i] >= 0) {
			close(pair[i]);
		}
	}
	if (ticket.sock >= 0) {
		close(ticket.sock);
	}
	explicit_bzero(&ticket, sizeof(ticket));
	tls_stream_destroy(client);
	close(client_fd);
}
