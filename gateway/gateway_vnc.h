/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_VNC_H
#define ORIEL_GATEWAY_VNC_H

/*
 * The gateway's VNC front: it listens, runs each connection's RFB
 * handshake (VeNCrypt X509Plain, TLS 1.3), checks the login through PAM,
 * and hands the logged-in viewer, with its TLS state, to the user's
 * session (capture/remote/handover.h). Connections still logging in are
 * guests with a deadline and per-address and total caps; failed logins
 * are throttled per address. Each guest runs on a thread of its own, so a
 * slow PAM or a session that is starting never holds the others.
 */

#include <stdbool.h>
#include <stddef.h>

struct gateway_config;
struct gateway_sessions;
struct gateway_vnc;

/*
 * Listens on config's vnc_listen and serves until gateway_vnc_stop, with
 * its certificate, PAM service, handshake timeout and pending caps.
 * config must stay.
 * NULL, with a sentence in error, when it cannot listen or has no
 * certificate.
 */
struct gateway_vnc *gateway_vnc_start(const struct gateway_config *config,
	struct gateway_sessions *sessions, char *error, size_t error_size);
/* The certificate's SHA-256 fingerprint, for the log. */
const char *gateway_vnc_fingerprint(const struct gateway_vnc *vnc);
/* Closes the listeners and every guest; sessions and their viewers go on. */
void gateway_vnc_stop(struct gateway_vnc *vnc);

#endif
