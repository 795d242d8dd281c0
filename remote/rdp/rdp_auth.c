/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "remote/account_check.h"
#include "remote/rdp/rdp_private.h"
#include "compositor/options.h"
#include "compositor/server.h"

/*
 * Who may log in: accounts from a users file (--rdp-users) or PAM
 * (--rdp-pam), checked off the event loop; the certificate clients see;
 * failed logons throttled per source address.
 */

bool rdp_auth_allowed(struct rdp_server *rdp, const char *host) {
	return auth_throttle_allowed(&rdp->throttle, host, monotonic_ms());
}

bool rdp_auth_log_note(struct rdp_server *rdp, const char *what, const char *host) {
	int64_t now_ms = monotonic_ms();
	char key[LOG_SUMMARY_KEY_MAX], due[LOG_SUMMARY_KEY_MAX];
	int held;
	while ((held = log_summary_due(&rdp->auth_log, now_ms, due)) > 0) {
		wlr_log(WLR_INFO, "RDP: %d more %s in the last minute", held,
			due[0] ? due : "failures and tries from other addresses");
	}
	snprintf(key, sizeof(key), "%s from %s", what, host);
	return log_summary_note(&rdp->auth_log, key, now_ms);
}

void rdp_auth_failed(struct rdp_server *rdp, const char *host, const char *user) {
	int count = auth_throttle_failed(&rdp->throttle, host, monotonic_ms());
	if (rdp_auth_log_note(rdp, "failures", host)) {
		wlr_log(WLR_INFO, "RDP: failed logon as \"%s\" from %s (%d in a row)", user, host,
			count);
	}
}

void rdp_auth_succeeded(struct rdp_server *rdp, const char *host) {
	auth_throttle_succeeded(&rdp->throttle, host);
}

static int handle_account_checked(int fd, uint32_t mask, void *data) {
	struct rdp_server *rdp = data;
	account_checker_dispatch(rdp->account_checker);
	return 0;
}

static bool start_accounts(struct rdp_server *rdp) {
	const struct options_rdp *options = rdp->options;
	char error[512];
	if (options->users_file && !users_file_load(&rdp->users, options->users_file,
			error, sizeof(error))) {
		wlr_log(WLR_ERROR, "RDP: %s", error);
		return false;
	}
	struct account_checker_config config = {
		.users = options->users_file ? &rdp->users : NULL,
		.pam_service = options->pam_service,
	};
	rdp->account_checker = account_checker_create(&config, error, sizeof(error));
	if (!rdp->account_checker) {
		wlr_log(WLR_ERROR, "RDP: %s", error);
		return false;
	}
	rdp->account_checker_source = wl_event_loop_add_fd(rdp->server->loop,
		account_checker_fd(rdp->account_checker), WL_EVENT_READABLE,
		handle_account_checked, rdp);
	rdp->accounts = options->users_file || options->pam_service || options->sam_file;
	if (options->sam_file) {
		wlr_log(WLR_INFO, "RDP: NLA logons are checked against the SAM file %s",
			options->sam_file);
	}
	if (options->pam_service) {
		wlr_log(WLR_INFO, "RDP: accounts are checked through PAM (service %s)",
			options->pam_service);
	}
	if (!rdp->accounts) {
		wlr_log(WLR_INFO, "RDP: no accounts (--rdp-users, --rdp-pam, --rdp-sam): only "
			"uid %u, the user running oriel, may connect, on loopback only",
			(unsigned)geteuid());
	}
	return rdp->account_checker_source != NULL;
}

static bool load_certificate(struct rdp_server *rdp) {
	const struct options_rdp *options = rdp->options;
	char error[512];
	if (!tls_identity_init(&rdp->tls, options->tls_cert, options->tls_key, error,
			sizeof(error))) {
		wlr_log(WLR_ERROR, "RDP: %s", error);
		return false;
	}
	wlr_log(WLR_INFO, "RDP: %s certificate %s, SHA-256 fingerprint %s",
		rdp->tls.generated ? "made the" : "using the", rdp->tls.cert_path,
		rdp->tls.fingerprint);
	return true;
}

bool rdp_auth_init(struct rdp_server *rdp) {
	return start_accounts(rdp) && load_certificate(rdp);
}

void rdp_auth_finish(struct rdp_server *rdp) {
	if (rdp->account_checker_source) {
		wl_event_source_remove(rdp->account_checker_source);
		rdp->account_checker_source = NULL;
	}
	account_checker_destroy(rdp->account_checker);
	rdp->account_checker = NULL;
	users_file_finish(&rdp->users);
	tls_identity_finish(&rdp->tls);
	auth_throttle_finish(&rdp->throttle);
}
