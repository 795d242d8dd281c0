/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "remote/account_check.h"
#include "remote/vnc/vnc_password_file.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * Who may log in: VncAuth passwords (--vnc-password-file), accounts from
 * a users file (--vnc-users) or PAM (--vnc-pam), and the certificate that
 * VeNCrypt and wss viewers see. Failed logins are throttled per source
 * address.
 */


/* Failures are counted per source address; Unix-socket viewers share one. */
static const char *auth_key(const char *host) {
	return host && host[0] ? host : "unix";
}

bool vnc_auth_allowed(struct vnc_server *vnc, const char *host) {
	return auth_throttle_allowed(&vnc->throttle, auth_key(host), monotonic_ms());
}

/* A user name from the network, fit for one log line. */
void vnc_auth_printable(const char *name, char *out, size_t size) {
	size_t i = 0;
	for (; name[i] && i + 1 < size; i++) {
		unsigned char c = (unsigned char)name[i];
		out[i] = c >= 0x20 && c != 0x7f && c != '"' ? (char)c : '?';
	}
	out[i] = '\0';
}

bool vnc_auth_log_note(struct vnc_server *vnc, const char *what, const char *host) {
	int64_t now_ms = monotonic_ms();
	char key[LOG_SUMMARY_KEY_MAX], due[LOG_SUMMARY_KEY_MAX];
	int held;
	while ((held = log_summary_due(&vnc->auth_log, now_ms, due)) > 0) {
		wlr_log(WLR_INFO, "VNC: %d more %s in the last minute", held,
			due[0] ? due : "failures and tries from other addresses");
	}
	snprintf(key, sizeof(key), "%s from %s", what, auth_key(host));
	return log_summary_note(&vnc->auth_log, key, now_ms);
}

void vnc_auth_failed(struct vnc_server *vnc, const char *host, const char *user,
		const char *method) {
	int count = auth_throttle_failed(&vnc->throttle, auth_key(host), monotonic_ms());
	if (!vnc_auth_log_note(vnc, "failures", host)) {
		return;
	}
	if (user && user[0]) {
		char shown[64];
		vnc_auth_printable(user, shown, sizeof(shown));
		wlr_log(WLR_INFO, "VNC: failed login as \"%s\" from %s (%s, %d in a row)",
			shown, auth_key(host), method, count);
	} else {
		wlr_log(WLR_INFO, "VNC: wrong password from %s (%s, %d in a row)",
			auth_key(host), method, count);
	}
}

void vnc_auth_succeeded(struct vnc_server *vnc, const char *host) {
	auth_throttle_succeeded(&vnc->throttle, auth_key(host));
}

bool vnc_auth_check_response(struct vnc_server *vnc, const uint8_t challenge[16],
		const uint8_t response[16], bool *view_only) {
	bool ok = false;
	for (int i = 0; vnc->passwords && vnc->passwords[i]; i++) {
		unsigned char expected[16];
		memcpy(expected, challenge, sizeof(expected));
		rfbEncryptBytes(expected, vnc->passwords[i]);
		unsigned char diff = 0;
		for (size_t j = 0; j < sizeof(expected); j++) {
			diff |= expected[j] ^ response[j];
		}
		if (diff == 0 && !ok) {
			ok = true;
			*view_only = i >= vnc->n_full_passwords;
		}
	}
	return ok;
}

/* libvncserver's VncAuth, for WebSocket viewers. */
static rfbBool check_password(rfbClientPtr cl, const char *response, int len) {
	struct vnc_server *vnc = cl->screen->screenData;
	rfbBool ok = rfbCheckPasswordByList(cl, response, len);
	if (!ok) {
		vnc_auth_failed(vnc, cl->host, NULL, "VncAuth");
		return FALSE;
	}
	vnc_auth_succeeded(vnc, cl->host);
	wlr_log(WLR_INFO, "VNC: viewer %s authenticated (VncAuth%s)", auth_key(cl->host),
		cl->viewOnly ? ", view-only" : "");
	return TRUE;
}

static bool load_passwords(struct vnc_server *vnc, const char *path) {
	FILE *f = fopen(path, "r");
	if (!f) {
		wlr_log_errno(WLR_ERROR, "VNC: cannot open the password file %s", path);
		return false;
	}
	struct vnc_password_file file;
	vnc_password_file_parse(&file, f);
	fclose(f);
	if (file.n_too_long > 0) {
		wlr_log(WLR_ERROR, "VNC: skipped %d line(s) of %s longer than %d characters",
			file.n_too_long, path, VNC_PASSWORD_LINE_MAX);
	}
	if (!file.passwords) {
		wlr_log(WLR_ERROR, "VNC: the password file %s has no password", path);
		return false;
	}
	if (file.long_password) {
		wlr_log(WLR_INFO, "VNC: VncAuth uses only the first 8 characters of a password");
	}
	vnc->passwords = file.passwords;
	vnc->n_full_passwords = file.n_full;
	vnc->screen->authPasswdData = file.passwords;
	vnc->screen->authPasswdFirstViewOnly = file.n_full;
	vnc->screen->passwordCheck = check_password;
	return true;
}

static int handle_account_checked(int fd, uint32_t mask, void *data) {
	struct vnc_server *vnc = data;
	account_checker_dispatch(vnc->account_checker);
	return 0;
}

static bool start_accounts(struct vnc_server *vnc) {
	const struct options_vnc *options = vnc->options;
	char error[512];
	if (options->users_file && !users_file_load(&vnc->users, options->users_file, error,
			sizeof(error))) {
		wlr_log(WLR_ERROR, "VNC: %s", error);
		return false;
	}
	struct account_checker_config config = {
		.users = options->users_file ? &vnc->users : NULL,
		.pam_service = options->pam_service,
		.pam_allowed = options->allow_users,
		.n_pam_allowed = options->n_allow_users,
	};
	vnc->account_checker = account_checker_create(&config, error, sizeof(error));
	if (!vnc->account_checker) {
		wlr_log(WLR_ERROR, "VNC: %s", error);
		return false;
	}
	vnc->account_checker_source = wl_event_loop_add_fd(vnc->server->loop,
		account_checker_fd(vnc->account_checker), WL_EVENT_READABLE,
		handle_account_checked, vnc);
	vnc->accounts = options->users_file || options->pam_service;
	if (options->pam_service) {
		wlr_log(WLR_INFO, "VNC: accounts are checked through PAM (service %s)",
			options->pam_service);
	}
	return vnc->account_checker_source != NULL;
}

static bool load_certificate(struct vnc_server *vnc) {
	const struct options_vnc *options = vnc->options;
	char error[512];
	if (!tls_identity_init(&vnc->tls, options->tls_cert, options->tls_key, error,
			sizeof(error))) {
		wlr_log(WLR_ERROR, "VNC: %s", error);
		return false;
	}
	wlr_log(WLR_INFO, "VNC: %s certificate %s, SHA-256 fingerprint %s",
		vnc->tls.generated ? "made the" : "using the", vnc->tls.cert_path,
		vnc->tls.fingerprint);
	return true;
}

bool vnc_auth_init(struct vnc_server *vnc) {
	const struct options_vnc *options = vnc->options;
	if (options->password_file && !load_passwords(vnc, options->password_file)) {
		return false;
	}
	if (!start_accounts(vnc) || !load_certificate(vnc)) {
		return false;
	}
	if (!vnc->accounts && !vnc->passwords) {
		wlr_log(WLR_INFO, "VNC: no accounts or passwords (--vnc-users, --vnc-pam, "
			"--vnc-password-file): only uid %u, the user running oriel, may connect",
			(unsigned)geteuid());
	}
	if (options->insecure) {
		wlr_log(WLR_ERROR, "VNC: --vnc-insecure: viewers beyond loopback may log in "
			"with VncAuth in the clear, where anyone on the way can read the "
			"session and take it over");
	}
	return true;
}

void vnc_auth_finish(struct vnc_server *vnc) {
	if (vnc->account_checker_source) {
		wl_event_source_remove(vnc->account_checker_source);
		vnc->account_checker_source = NULL;
	}
	account_checker_destroy(vnc->account_checker);
	vnc->account_checker = NULL;
	users_file_finish(&vnc->users);
	tls_identity_finish(&vnc->tls);
	vnc_passwords_free(vnc->passwords);
	vnc->passwords = NULL;
	auth_throttle_finish(&vnc->throttle);
}
