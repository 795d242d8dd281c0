/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <wlr/util/log.h>
#include "remote/remote_auth.h"
#include "common/util.h"

static int handle_account_checked(int fd, uint32_t mask, void *data) {
	struct remote_auth *auth = data;
	account_checker_dispatch(auth->checker);
	return 0;
}

bool remote_auth_init(struct remote_auth *auth, struct wl_event_loop *loop,
		const struct remote_auth_config *config) {
	auth->name = config->name;
	char error[512];
	if (config->users_file && !users_file_load(&auth->users, config->users_file, error,
			sizeof(error))) {
		wlr_log(WLR_ERROR, "%s: %s", auth->name, error);
		return false;
	}
	struct account_checker_config checks = config->checks;
	checks.users = config->users_file ? &auth->users : NULL;
	auth->checker = account_checker_create(&checks, error, sizeof(error));
	if (!auth->checker) {
		wlr_log(WLR_ERROR, "%s: %s", auth->name, error);
		return false;
	}
	auth->checker_source = wl_event_loop_add_fd(loop, account_checker_fd(auth->checker),
		WL_EVENT_READABLE, handle_account_checked, auth);
	if (checks.pam_service) {
		wlr_log(WLR_INFO, "%s: accounts are checked through PAM (service %s)", auth->name,
			checks.pam_service);
	}
	return auth->checker_source != NULL;
}

void remote_auth_finish(struct remote_auth *auth) {
	if (auth->checker_source) {
		wl_event_source_remove(auth->checker_source);
		auth->checker_source = NULL;
	}
	account_checker_destroy(auth->checker);
	auth->checker = NULL;
	users_file_finish(&auth->users);
	auth_throttle_finish(&auth->throttle);
}

bool remote_auth_load_certificate(const struct remote_auth *auth, struct tls_identity *tls,
		const char *cert, const char *key) {
	char error[512];
	if (!tls_identity_init(tls, cert, key, error, sizeof(error))) {
		wlr_log(WLR_ERROR, "%s: %s", auth->name, error);
		return false;
	}
	wlr_log(WLR_INFO, "%s: %s certificate %s, SHA-256 fingerprint %s", auth->name,
		tls->generated ? "made the" : "using the", tls->cert_path, tls->fingerprint);
	return true;
}

bool remote_auth_allowed(const struct remote_auth *auth, const char *host) {
	return auth_throttle_allowed(&auth->throttle, host, monotonic_ms());
}

int remote_auth_failed(struct remote_auth *auth, const char *host) {
	return auth_throttle_failed(&auth->throttle, host, monotonic_ms());
}

void remote_auth_succeeded(struct remote_auth *auth, const char *host) {
	auth_throttle_succeeded(&auth->throttle, host);
}

static void report(void *data, const char *line) {
	const struct remote_auth *auth = data;
	wlr_log(WLR_INFO, "%s: %s", auth->name, line);
}

bool remote_auth_log_note(struct remote_auth *auth, const char *what, const char *host) {
	return log_summary_note_from(&auth->log, what, host, monotonic_ms(), report, auth);
}
