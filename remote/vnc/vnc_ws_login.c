/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <wlr/util/log.h>
#include "remote/account_check.h"
#include "remote/vnc/rfb_security.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * oriel's RFB handshake for a WebSocket viewer, so that browsers log in
 * with accounts: libvncserver only knows VncAuth and None. libvncserver
 * keeps the WebSocket framing (it did the upgrade and sent the protocol
 * version); oriel reads and writes the handshake through it and runs
 * rfb_security.c as for native viewers, with VeNCrypt's Plain sub-type
 * where the channel is safe already. Then libvncserver goes on from
 * ClientInit.
 *
 * libvncserver reads whole messages, waiting for the rest of a WebSocket
 * frame; the handshake's messages are a few bytes, sent in one frame each,
 * so the wait is bounded by READ_WAIT_MS and by the login's deadline.
 */

#define READ_WAIT_MS 500

struct vnc_ws_login {
	struct vnc_client *client;
	struct rfb_security sec;
	enum rfb_security_step step;
	uint8_t in[2 * RFB_SECURITY_MAX_CREDENTIAL + 16];
	struct account_check *check;
	bool view_only;
	char host[64];
};

static const char *method_name(const struct rfb_security *sec) {
	if (sec->type == RFB_SECURITY_VENCRYPT) {
		return vencrypt_subtype_name(sec->subtype);
	}
	return sec->type == RFB_SECURITY_VNC_AUTH ? "VncAuth" : "None";
}

void vnc_ws_login_destroy(struct vnc_ws_login *login) {
	if (!login) {
		return;
	}
	account_check_cancel(login->check);
	rfb_security_finish(&login->sec);
	free(login);
}

/* Ends the login: the client goes on in libvncserver, or is dropped (false). */
static bool finish(struct vnc_ws_login *login) {
	struct vnc_client *client = login->client;
	rfbClientPtr cl = client->cl;
	client->ws_login = NULL;
	if (login->step != RFB_SECURITY_STEP_DONE) {
		char why[200];
		snprintf(why, sizeof(why), "%s", login->sec.error);
		vnc_ws_login_destroy(login);
		vnc_client_drop(client, why);
		return false;
	}
	/* Its ClientInit is next, for libvncserver (reading stopped for a check). */
	wl_event_source_fd_update(client->source, WL_EVENT_READABLE);
	cl->state = RFB_INITIALISATION;
	cl->protocolMinorVersion = login->sec.minor;
	cl->viewOnly = cl->viewOnly || login->view_only;
	char user[64];
	vnc_auth_printable(login->sec.plain ? login->sec.user : "", user, sizeof(user));
	if (user[0]) {
		wlr_log(WLR_INFO, "VNC: %s logged in as \"%s\" over WebSocket (%s%s)", login->host,
			user, method_name(&login->sec), cl->viewOnly ? ", view-only" : "");
	}
	vnc_ws_login_destroy(login);
	return true;
}

/* Sends what the machine wrote; false when the client is gone. */
static bool flush(struct vnc_ws_login *login) {
	struct rfb_security *sec = &login->sec;
	bool ok = sec->out_len == 0 ||
		rfbWriteExact(login->client->cl, (const char *)sec->out, (int)sec->out_len) >= 0;
	rfb_security_sent(sec);
	return ok;
}

/* Counts the outcome for the throttle, logs a failure, and answers the viewer. */
static void checked(struct vnc_ws_login *login, bool ok, bool view_only) {
	struct vnc_server *vnc = login->client->vnc;
	if (ok) {
		vnc_auth_succeeded(vnc, login->host);
		login->view_only = login->view_only || view_only;
	} else {
		vnc_auth_failed(vnc, login->host, login->sec.user, method_name(&login->sec));
	}
	login->step = rfb_security_checked(&login->sec, ok, "authentication failed");
}

static void handle_checked(void *data, bool ok, bool view_only);

/* Runs the machine as far as it goes without the viewer; false: it ended. */
static bool progress(struct vnc_ws_login *login) {
	struct vnc_client *client = login->client;
	struct vnc_server *vnc = client->vnc;
	if (!flush(login)) {
		login->step = RFB_SECURITY_STEP_FAILED;
		snprintf(login->sec.error, sizeof(login->sec.error), "it hung up during the handshake");
		return finish(login);
	}
	switch (login->step) {
	case RFB_SECURITY_STEP_READ:
		wl_event_source_fd_update(client->source, WL_EVENT_READABLE);
		return true;
	case RFB_SECURITY_STEP_CHECK_VNC: {
		bool view_only = false;
		bool ok = vnc_auth_check_response(vnc, login->sec.challenge, login->sec.response,
			&view_only);
		checked(login, ok, view_only);
		return progress(login);
	}
	case RFB_SECURITY_STEP_CHECK_PLAIN:
		login->check = account_check_start(vnc->auth.checker, login->sec.user,
			login->sec.password, login->host, handle_checked, login);
		memset(login->sec.password, 0, sizeof(login->sec.password));
		if (!login->check) {
			login->step = RFB_SECURITY_STEP_FAILED;
			snprintf(login->sec.error, sizeof(login->sec.error), "cannot check the account");
			return finish(login);
		}
		/* Nothing is read while the account is checked. */
		wl_event_source_fd_update(client->source, 0);
		return true;
	case RFB_SECURITY_STEP_START_TLS:
		/* Never offered here: the channel is wss or loopback. */
		login->step = RFB_SECURITY_STEP_FAILED;
		snprintf(login->sec.error, sizeof(login->sec.error), "TLS inside WebSocket");
		return finish(login);
	case RFB_SECURITY_STEP_DONE:
	case RFB_SECURITY_STEP_FAILED:
		return finish(login);
	}
	return true;
}

static void handle_checked(void *data, bool ok, bool view_only) {
	struct vnc_ws_login *login = data;
	login->check = NULL;
	checked(login, ok, view_only);
	progress(login);
}

bool vnc_ws_login_readable(struct vnc_ws_login *login) {
	struct vnc_client *client = login->client;
	rfbClientPtr cl = client->cl;
	do {
		size_t want = rfb_security_wants(&login->sec);
		if (login->step != RFB_SECURITY_STEP_READ || want == 0) {
			return true;
		}
		if (rfbReadExactTimeout(cl, (char *)login->in, (int)want, READ_WAIT_MS) <= 0) {
			login->step = RFB_SECURITY_STEP_FAILED;
			snprintf(login->sec.error, sizeof(login->sec.error),
				"it hung up or stalled during the handshake");
			return finish(login);
		}
		login->step = rfb_security_feed(&login->sec, login->in, want);
		memset(login->in, 0, want);
		if (!progress(login)) {
			return false;
		}
		if (client->ws_login != login) {
			return true; /* in: libvncserver takes it from here */
		}
	} while (webSocketsHasDataInBuffer(cl));
	return true;
}

void vnc_ws_login_start(struct vnc_client *client, const struct rfb_security_offer *offer) {
	struct rfb_security_offer usable = *offer;
	uint8_t challenge[16];
	if (getrandom(challenge, sizeof(challenge), 0) != sizeof(challenge)) {
		usable.refusal = "no random bytes for the challenge";
	}
	struct vnc_ws_login *login = zalloc(sizeof(*login));
	login->client = client;
	login->view_only = client->vnc->options->view_only;
	const char *host = client->cl->host;
	snprintf(login->host, sizeof(login->host), "%s", host && host[0] ? host : "unix");
	rfb_security_init(&login->sec, &usable, challenge);
	/* libvncserver sent the protocol version already. */
	rfb_security_sent(&login->sec);
	login->step = RFB_SECURITY_STEP_READ;
	client->ws_login = login;
}
