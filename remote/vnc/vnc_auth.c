/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "remote/remote_auth.h"
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
	return remote_auth_allowed(&vnc->auth, auth_key(host));
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
	return remote_auth_log_note(&vnc->auth, what, auth_key(host));
}

void vnc_auth_failed(struct vnc_server *vnc, const char *host, const char *user,
		const char *method) {
	int count = remote_auth_failed(&vnc->auth, auth_key(host));
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
	remote_auth_succeeded(&vnc->auth, auth_key(host));
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

static bool start_accounts(struct vnc_server *vnc) {
	const struct options_vnc *options = vnc->options;
	struct remote_auth_config config = {
		.name = "VNC",
		.users_file = options->users_file,
		.checks = {
			.pam_service = options->pam_service,
			.pam_allowed = options->allow_users,
			.n_pam_allowed = options->n_allow_users,
		},
	};
	vnc->accounts = options->users_file || options->pam_service;
	return remote_auth_init(&vnc->auth, vnc->server->loop, &config);
}

bool vnc_auth_init(struct vnc_server *vnc) {
	const struct options_vnc *options = vnc->options;
	if (options->password_file && !load_passwords(vnc, options->password_file)) {
		return false;
	}
	if (!start_accounts(vnc) || !remote_auth_load_certificate(&vnc->auth, &vnc->tls,
			options->tls_cert, options->tls_key)) {
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
	remote_auth_finish(&vnc->auth);
	tls_identity_finish(&vnc->tls);
	vnc_passwords_free(vnc->passwords);
	vnc->passwords = NULL;
}
