/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_REMOTE_AUTH_H
#define ORIEL_REMOTE_REMOTE_AUTH_H

/*
 * Who may log in to a server of the session, as VNC and RDP share it:
 * accounts from a users file or PAM, checked off the event loop
 * (account_check.h); failed logins throttled per source address
 * (auth_throttle.h), and their log lines summarised (log_summary.h);
 * the certificate clients see. What a protocol adds (VncAuth passwords,
 * RDP's SAM file) stays with it.
 */

#include <stdbool.h>
#include <wayland-server-core.h>
#include "remote/account_check.h"
#include "remote/auth_throttle.h"
#include "remote/log_summary.h"
#include "remote/tls_identity.h"
#include "remote/users_file.h"

struct remote_auth {
	const char *name; /* "VNC": in the log */
	struct users_file users;
	struct account_checker *checker;
	struct wl_event_source *checker_source;
	struct auth_throttle throttle;
	struct log_summary log; /* failures and refusals, summarised per address */
};

struct remote_auth_config {
	const char *name;
	const char *users_file; /* NULL: none */
	/* PAM's service and who it lets in; .users is the file above. */
	struct account_checker_config checks;
};

/* Loads the users file and starts the account checker; false, logged, when it cannot. */
bool remote_auth_init(struct remote_auth *auth, struct wl_event_loop *loop,
	const struct remote_auth_config *config);
void remote_auth_finish(struct remote_auth *auth);

/* The certificate (made when none is given), its fingerprint logged; false, logged. */
bool remote_auth_load_certificate(const struct remote_auth *auth, struct tls_identity *tls,
	const char *cert, const char *key);

/* The throttle, keyed by the source address. */
bool remote_auth_allowed(const struct remote_auth *auth, const char *host);
/* One more failure from host: how many in a row. */
int remote_auth_failed(struct remote_auth *auth, const char *host);
void remote_auth_succeeded(struct remote_auth *auth, const char *host);

/* One more log line of what ("failures") from host: whether to log it. */
bool remote_auth_log_note(struct remote_auth *auth, const char *what, const char *host);

#endif
