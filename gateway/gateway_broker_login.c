/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <string.h>
#include <gnutls/gnutls.h>
#include "capture/remote/account_check.h"
#include "capture/remote/handover.h"
#include "compositor/util.h" /* monotonic_ms */
#include "gateway/gateway_broker.h"
#include "gateway/gateway_guests.h" /* gateway_printable */
#include "gateway/gateway_log.h"
#include "gateway/gateway_sessions.h"

/*
 * A login's checks, in the broker (root): the throttle, PAM, and the
 * session. The worker told who and from where; what it says is all it
 * can do: a password is checked, never taken on trust.
 */

int gateway_broker_check_login(struct gateway_broker_front *front, const char *host,
		const char *user, char *password, uint16_t *flags, const char **reason) {
	pthread_mutex_lock(&front->lock);
	bool allowed = auth_throttle_allowed(&front->throttle, host, monotonic_ms());
	pthread_mutex_unlock(&front->lock);
	if (!allowed) {
		gnutls_memset(password, 0, strlen(password));
		*reason = "too many failed logins from your address: wait, then try again";
		gateway_log("%s: %s must wait before logging in again", front->name, host);
		return -1;
	}
	bool view_only = false;
	/* A name longer than a session can be told is no account's. */
	bool ok = account_check_run(front->checker, user, password, host,
		&view_only) && strlen(user) < sizeof(((struct handover_message *)0)->user);
	gnutls_memset(password, 0, strlen(password));
	pthread_mutex_lock(&front->lock);
	if (ok) {
		auth_throttle_succeeded(&front->throttle, host);
	} else {
		auth_throttle_failed(&front->throttle, host, monotonic_ms());
	}
	pthread_mutex_unlock(&front->lock);
	char printable[128];
	gateway_printable(user, printable, sizeof(printable));
	if (!ok) {
		*reason = "authentication failed";
		gateway_log("%s: failed login as \"%s\" from %s", front->name, printable, host);
		return -1;
	}
	char error[256] = "";
	int sock = gateway_sessions_connect(front->sessions, user, flags, error, sizeof(error));
	if (sock < 0) {
		*reason = "your session cannot start";
		gateway_log("%s: \"%s\" from %s logged in, but: %s", front->name,
			printable, host, error);
		return -1;
	}
	gateway_log("%s: \"%s\" logged in from %s", front->name, printable, host);
	return sock;
}
