/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_FRONT_H
#define ORIEL_GATEWAY_FRONT_H

/*
 * The gateway's network fronts, VNC and RDP: each listens, runs each
 * connection's handshake and login (VNC: VeNCrypt X509Plain; RDP: TLS
 * and the Client Info PDU, then a Server Redirection back to the
 * gateway), checks the login through PAM, and hands the logged-in
 * client, with its TLS state, to the user's session
 * (capture/remote/handover.h). Connections still logging in are guests
 * with a deadline and per-address and total caps; failed logins are
 * throttled per address. Each guest runs on a thread of its own, so a
 * slow PAM or a session that is starting never holds the others.
 */

#include <stdbool.h>
#include <stddef.h>

struct gateway_config;
struct gateway_sessions;
struct gateway_front;

enum gateway_protocol {
	GATEWAY_VNC,
	GATEWAY_RDP,
};

/*
 * Listens on config's vnc_listen or rdp_listen and serves until
 * gateway_front_stop, with its certificate, PAM service, handshake
 * timeout and pending caps. config must stay.
 * NULL, with a sentence in error, when it cannot listen or has no
 * certificate.
 */
struct gateway_front *gateway_front_start(const struct gateway_config *config,
	struct gateway_sessions *sessions, enum gateway_protocol protocol, char *error,
	size_t error_size);
/* The certificate's SHA-256 fingerprint, for the log. */
const char *gateway_front_fingerprint(const struct gateway_front *front);
/* Closes the listeners and every guest; sessions and their clients go on. NULL: no-op. */
void gateway_front_stop(struct gateway_front *front);

#endif
