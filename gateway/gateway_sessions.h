/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_SESSIONS_H
#define ORIEL_GATEWAY_SESSIONS_H

/*
 * Where a logged-in user's connection goes: her running session, or a
 * new one, as the reconnect policy says. Called from the front's
 * per-login threads; a user's logins queue behind her session's look-up
 * and start, other users' do not.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gateway_config;
struct gateway_sessions;

/* config is kept (not copied) and must outlive the sessions object. */
struct gateway_sessions *gateway_sessions_create(const struct gateway_config *config);
/* NULL is a no-op. Sessions go on running. */
void gateway_sessions_destroy(struct gateway_sessions *sessions);

/* Whether user may log in at all (gateway_login_policy.h); false with why. */
bool gateway_sessions_allowed(struct gateway_sessions *sessions, const char *user,
	char *error, size_t error_size);

/*
 * A connected hand-over socket (SOCK_SEQPACKET, non-blocking) to user's
 * session, whose peer was checked to run as user, starting the session
 * first when the policy wants one. Adds HANDOVER_TAKE_OVER to
 * *handover_flags under the take-over policy. -1 with a sentence in
 * error, and errno ETIMEDOUT when her session is there but does not
 * answer (no new one is started then). Holds no lock that other users'
 * logins need while it connects or starts a session; every wait has a
 * deadline but the wait for her own other login's look-up or start.
 */
int gateway_sessions_connect(struct gateway_sessions *sessions, const char *user,
	uint16_t *handover_flags, char *error, size_t error_size);

#endif
