/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <gnutls/gnutls.h>
#include "remote/account_check.h"
#include "remote/handover.h"
#include "common/util.h" /* monotonic_ms */
#include "gateway/gateway_broker.h"
#include "gateway/gateway_guests.h" /* gateway_printable, GATEWAY_REFUSED */
#include "gateway/gateway_log.h"
#include "gateway/gateway_login_policy.h"
#include "gateway/gateway_sessions.h"

/*
 * A login's checks, in the broker (root): the throttle, who may log in,
 * PAM, and the session. The worker told who and from where; what it
 * says is all it can do: a password is checked, never taken on trust,
 * and the address it claims is the one throttled.
 */

bool gateway_broker_may_try(struct gateway_broker_front *front, const char *host) {
	pthread_mutex_lock(&front->lock);
	bool allowed = auth_throttle_allowed(&front->throttle, host, monotonic_ms());
	pthread_mutex_unlock(&front->lock);
	if (!allowed) {
		gateway_log_summarised("tries while it must wait", host,
			"%s: %s must wait before logging in again", front->name, host);
	}
	return allowed;
}

void gateway_broker_count_failure(struct gateway_broker_front *front, const char *host) {
	pthread_mutex_lock(&front->lock);
	auth_throttle_failed(&front->throttle, host, monotonic_ms());
	pthread_mutex_unlock(&front->lock);
}

void gateway_broker_failed(struct gateway_broker_front *front, const char *host,
		const char *format, ...) {
	gateway_broker_count_failure(front, host);
	char line[512];
	va_list args;
	va_start(args, format);
	vsnprintf(line, sizeof(line), format, args);
	va_end(args);
	gateway_log_summarised("failures", host, "%s: %s", front->name, line);
}

/*
 * Whether user may log in at all, before her password: false with why.
 * A name longer than a session can be told is no account's.
 */
static bool may_log_in(struct gateway_broker_front *front, const char *user, char *why,
		size_t why_size) {
	if (strlen(user) >= sizeof(((struct handover_message *)0)->user)) {
		snprintf(why, why_size, "the name is too long");
		return false;
	}
	return gateway_login_policy_check(front->config, user, why, why_size);
}

int gateway_broker_check_login(struct gateway_broker_front *front, const char *host,
		const char *user, char *password, uint16_t *flags, const char **reason) {
	if (!gateway_broker_may_try(front, host)) {
		gnutls_memset(password, 0, strlen(password));
		*reason = GATEWAY_MUST_WAIT;
		return -1;
	}
	char refusal[256];
	bool may = may_log_in(front, user, refusal, sizeof(refusal));
	bool view_only = false;
	/* Refused or not, PAM checks the password, and a refusal takes as long. */
	bool ok = false;
	if (may) {
		ok = account_check_run(front->checker, user, password, host, &view_only);
	} else {
		account_check_run_refused(front->checker, user, password, host);
	}
	gnutls_memset(password, 0, strlen(password));
	char printable[128];
	gateway_printable(user, printable, sizeof(printable));
	if (!ok) {
		*reason = GATEWAY_REFUSED;
		if (may) {
			gateway_broker_failed(front, host, "failed login as \"%s\" from %s",
				printable, host);
		} else {
			gateway_broker_failed(front, host, "refused \"%s\" from %s: %s", printable,
				host, refusal);
		}
		return -1;
	}
	pthread_mutex_lock(&front->lock);
	auth_throttle_succeeded(&front->throttle, host);
	pthread_mutex_unlock(&front->lock);
	char error[256] = "";
	int sock = gateway_sessions_connect(front->sessions, user, flags, error, sizeof(error));
	if (sock < 0) {
		/* ETIMEDOUT: her session is there but does not answer (gateway_sessions.h). */
		*reason = errno == ETIMEDOUT ? "your session does not answer" :
			"your session cannot start";
		gateway_log("%s: \"%s\" from %s logged in, but: %s", front->name,
			printable, host, error);
		return -1;
	}
	gateway_log("%s: \"%s\" logged in from %s", front->name, printable, host);
	return sock;
}
