/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_RDP_RELAY_H
#define ORIEL_GATEWAY_RDP_RELAY_H

/*
 * The RDP front's relay (gateway_rdp_relay.c), for a client that logged
 * in on its first connection and cannot follow a Server Redirection.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "gateway/gateway_guests.h"

struct tls_stream;

/* What the session's FreeRDP is walked through, and what the relay does meanwhile. */
struct gateway_rdp_replay {
	uint8_t *client;     /* all the client sent after TLS up to its Client Info (its password is zeroed here) */
	size_t len;
	unsigned answers;    /* the session's PDUs that the client had already (from the gateway) */
	bool hold_client;    /* the client's PDUs wait for the session's first (after a logon screen) */
};

/*
 * Hands the client to the session of the ticket of token (taken from the
 * broker), relayed, and relays until either side closes. client and
 * client_fd: the client's TLS and socket (taken); request: its X.224
 * Connection Request. why: empty once handed over, else a sentence.
 */
void gateway_rdp_relay(struct gateway_guest *guest, struct tls_stream *client,
	int client_fd, const uint8_t *request, size_t request_len,
	struct gateway_rdp_replay *replay, const char *token, char *why, size_t why_size);

#endif
