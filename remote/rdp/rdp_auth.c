/* SPDX-License-Identifier: MIT */
#include <unistd.h>
#include <wlr/util/log.h>
#include "remote/remote_auth.h"
#include "remote/rdp/rdp_private.h"
#include "compositor/options.h"
#include "compositor/server.h"

/*
 * Who may log in: accounts from a users file (--rdp-users) or PAM
 * (--rdp-pam), checked off the event loop; the certificate clients see;
 * failed logons throttled per source address.
 */

bool rdp_auth_allowed(struct rdp_server *rdp, const char *host) {
	return remote_auth_allowed(&rdp->auth, host);
}

bool rdp_auth_log_note(struct rdp_server *rdp, const char *what, const char *host) {
	return remote_auth_log_note(&rdp->auth, what, host);
}

void rdp_auth_failed(struct rdp_server *rdp, const char *host, const char *user) {
	int count = remote_auth_failed(&rdp->auth, host);
	if (rdp_auth_log_note(rdp, "failures", host)) {
		wlr_log(WLR_INFO, "RDP: failed logon as \"%s\" from %s (%d in a row)", user, host,
			count);
	}
}

void rdp_auth_succeeded(struct rdp_server *rdp, const char *host) {
	remote_auth_succeeded(&rdp->auth, host);
}

static bool start_accounts(struct rdp_server *rdp) {
	const struct options_rdp *options = rdp->options;
	struct remote_auth_config config = {
		.name = "RDP",
		.users_file = options->users_file,
		.checks = { .pam_service = options->pam_service },
	};
	if (!remote_auth_init(&rdp->auth, rdp->server->loop, &config)) {
		return false;
	}
	rdp->accounts = options->users_file || options->pam_service || options->sam_file;
	if (options->sam_file) {
		wlr_log(WLR_INFO, "RDP: NLA logons are checked against the SAM file %s",
			options->sam_file);
	}
	if (!rdp->accounts) {
		wlr_log(WLR_INFO, "RDP: no accounts (--rdp-users, --rdp-pam, --rdp-sam): only "
			"uid %u, the user running oriel, may connect, on loopback only",
			(unsigned)geteuid());
	}
	return true;
}

bool rdp_auth_init(struct rdp_server *rdp) {
	return start_accounts(rdp) && remote_auth_load_certificate(&rdp->auth, &rdp->tls,
		rdp->options->tls_cert, rdp->options->tls_key);
}

void rdp_auth_finish(struct rdp_server *rdp) {
	remote_auth_finish(&rdp->auth);
	tls_identity_finish(&rdp->tls);
}
