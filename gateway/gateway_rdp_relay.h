/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_RDP_RELAY_H
#define ORIEL_GATEWAY_RDP_RELAY_H

/*
 * The RDP front's relay (gateway_rdp_relay.c), for a client that logged
 * in on its first connection and cannot follow a Server Redirection.
 */

#include <stddef.h>
#include <stdint.h>
#include "remote/tls_bridge.h"
#include "gateway/gateway_guests.h"

/*
 * Hands the client to the session of the ticket of token (taken from the
 * broker), relayed, and relays until either side closes. client and
 * client_fd: the client's TLS and socket (taken); request: its X.224
 * Connection Request; tap: what the login's bridge saw (its password is
 * zeroed here). why: empty once handed over, else a sentence.
 */
void gateway_rdp_relay(struct gateway_guest *guest, struct tls_stream *client,
	int client_fd, const uint8_t *request, size_t request_len,
	struct tls_bridge_tap *tap, const char *token, char *why, size_t why_size);

#endif
