/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_LOGIN_POLICY_H
#define ORIEL_GATEWAY_LOGIN_POLICY_H

/*
 * Who may log in through the gateway, decided before any password: an
 * account of this host, not uid 0, with a login shell (not nologin or
 * false, and in /etc/shells when there is one), neither expired nor
 * locked, with no password change due, and among allow-users or
 * allow-groups when the configuration names any. The reason is for the
 * log only: a client that may not log in hears what a wrong password
 * hears, after as long.
 */

#include <stdbool.h>
#include <stddef.h>

struct gateway_config;

/* False with the reason (one sentence) in reason. */
bool gateway_login_policy_check(const struct gateway_config *config, const char *user,
	char *reason, size_t reason_size);

#endif
