/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <wlr/util/log.h>
#include "remote/account_check.h"
#include "remote/vnc/rfb_security.h"
#include "remote/vnc/vnc_http_request.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/util.h"

/* A wss viewer's WebSocket request, read whole before libvncserver gets it. */
#define WSS_REQUEST_MAX 8192

/*
 * oriel's side of the RFB handshake, before libvncserver sees a viewer:
 * the security types, VeNCrypt with its TLS handshake, and the login,
 * all non-blocking in the event loop (rfb_security.c is the protocol).
 * Credentials are checked off the loop (account_check.c). Once the viewer
 * is in, its socket and TLS session go to the relay, and libvncserver
 * starts at ClientInit.
 *
 * A TLS hello first (https) only gets the TLS handshake here, and its
 * request is read whole: a page goes to the file server (vnc_http.c), a
 * WebSocket upgrade (wss) to libvncserver, which speaks WebSocket in the
 * clear to it, and the RFB handshake (or oriel's: vnc_ws_login.c). (Given
 * less than 4 bytes, its WebSocket check would spin until more come.)
 */

struct vnc_handshake {
	struct vnc_guest *guest;
	bool tls_first;
	gnutls_session_t tls;
	bool in_tls_handshake;
	bool tls_retry; /* a record send must be retried (GnuTLS's rule) */
	struct rfb_security sec;
	enum rfb_security_step step;
	uint8_t in[2 * RFB_SECURITY_MAX_CREDENTIAL + 16];
	size_t in_len;
	size_t out_sent;
	struct account_check *check;
	bool view_only;
	bool reading_request; /* wss: the TLS handshake is done */
	char request[WSS_REQUEST_MAX + 1];
	size_t request_len;
};

static void progress(struct vnc_handshake *hs);

void vnc_handshake_destroy(struct vnc_handshake *hs) {
	if (!hs) {
		return;
	}
	account_check_cancel(hs->check);
	if (hs->tls) {
		gnutls_deinit(hs->tls);
	}
	rfb_security_finish(&hs->sec);
	free(hs);
}

bool vnc_handshake_checking(const struct vnc_handshake *hs) {
	return hs->check != NULL;
}

/*
 * Every whole TLS handshake message from the viewer moves its guest on; a
 * whole ClientHello sets it apart from stalled ones at once.
 */
static int tls_message_heard(gnutls_session_t tls, unsigned int type, unsigned int when,
		unsigned int incoming, const gnutls_datum_t *message) {
	(void)when;
	(void)message;
	struct vnc_handshake *hs = gnutls_session_get_ptr(tls);
	if (hs && incoming) {
		vnc_guest_progressed(hs->guest, type == GNUTLS_HANDSHAKE_CLIENT_HELLO ?
			VNC_GUEST_TLS_HELLO : VNC_GUEST_CONNECTED);
	}
	return 0;
}

static void watch(struct vnc_handshake *hs, uint32_t mask) {
	wl_event_source_fd_update(hs->guest->source, mask);
}

/* Sends what the machine wrote; false when the socket must drain first. */
static bool flush(struct vnc_handshake *hs, bool *gone) {
	struct rfb_security *sec = &hs->sec;
	while (hs->out_sent < sec->out_len) {
		ssize_t n;
		if (hs->tls) {
			n = hs->tls_retry ? gnutls_record_send(hs->tls, NULL, 0) :
				gnutls_record_send(hs->tls, sec->out + hs->out_sent,
					sec->out_len - hs->out_sent);
			hs->tls_retry = n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED;
			if (hs->tls_retry) {
				watch(hs, gnutls_record_get_direction(hs->tls) ?
					WL_EVENT_WRITABLE : WL_EVENT_READABLE);
				return false;
			}
		} else {
			n = send(hs->guest->fd, sec->out + hs->out_sent,
				sec->out_len - hs->out_sent, MSG_NOSIGNAL | MSG_DONTWAIT);
			if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
				watch(hs, WL_EVENT_WRITABLE);
				return false;
			}
		}
		if (n <= 0) {
			*gone = true;
			return false;
		}
		hs->out_sent += (size_t)n;
	}
	rfb_security_sent(sec);
	hs->out_sent = 0;
	return true;
}

/* Reads toward the next message; false when it must wait (or *gone). */
static bool read_message(struct vnc_handshake *hs, bool *gone) {
	size_t want = rfb_security_wants(&hs->sec);
	while (hs->in_len < want) {
		ssize_t n;
		if (hs->tls) {
			n = gnutls_record_recv(hs->tls, hs->in + hs->in_len, want - hs->in_len);
			if (n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED) {
				watch(hs, WL_EVENT_READABLE);
				return false;
			}
		} else {
			/* Exactly what the message needs: nothing after it is taken. */
			n = recv(hs->guest->fd, hs->in + hs->in_len, want - hs->in_len, MSG_DONTWAIT);
			if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
				watch(hs, WL_EVENT_READABLE);
				return false;
			}
		}
		if (n <= 0) {
			*gone = true;
			return false;
		}
		hs->in_len += (size_t)n;
	}
	return true;
}

static const char *method_name(const struct rfb_security *sec) {
	if (sec->type == RFB_SECURITY_VENCRYPT) {
		return vencrypt_subtype_name(sec->subtype);
	}
	return sec->type == RFB_SECURITY_VNC_AUTH ? "VncAuth" : "None";
}

static void admit(struct vnc_handshake *hs) {
	struct vnc_guest *guest = hs->guest;
	struct rfb_security *sec = &hs->sec;
	struct vnc_admission admission = {
		.authenticated = true,
		.minor = sec->minor,
		.view_only = hs->view_only,
		.method = method_name(sec),
	};
	vnc_auth_printable(sec->plain ? sec->user : "", admission.user, sizeof(admission.user));
	if (!guest->local && !hs->tls) {
		wlr_log(WLR_ERROR, "VNC: %s logs in with VncAuth in the clear "
			"(--vnc-insecure): anyone on the way can read and take over the session",
			guest->host);
	}
	struct tls_stream *tls = hs->tls ? tls_stream_records_from_session(hs->tls) : NULL;
	hs->tls = NULL; /* the relay's now */
	guest->handshake = NULL;
	vnc_handshake_destroy(hs);
	vnc_guest_admit(guest, tls, &admission);
}

static void handle_checked(void *data, bool ok, bool view_only) {
	struct vnc_handshake *hs = data;
	struct vnc_server *vnc = hs->guest->vnc;
	hs->check = NULL;
	if (ok) {
		vnc_auth_succeeded(vnc, hs->guest->host);
		hs->view_only = hs->view_only || view_only;
	} else {
		vnc_auth_failed(vnc, hs->guest->host, hs->sec.user, method_name(&hs->sec));
	}
	hs->step = rfb_security_checked(&hs->sec, ok, "authentication failed");
	progress(hs);
}

static void check_vnc_auth(struct vnc_handshake *hs) {
	struct vnc_server *vnc = hs->guest->vnc;
	bool view_only = false;
	bool ok = vnc_auth_check_response(vnc, hs->sec.challenge, hs->sec.response, &view_only);
	handle_checked(hs, ok, view_only);
}

static void start_tls(struct vnc_handshake *hs) {
	struct vnc_guest *guest = hs->guest;
	uint32_t subtype = hs->sec.subtype;
	bool anonymous = !hs->tls_first && !vencrypt_subtype_is_x509(subtype);
	hs->tls = tls_identity_new_session(&guest->vnc->tls, guest->fd, anonymous);
	if (!hs->tls) {
		vnc_guest_drop(guest, "cannot start TLS");
		return;
	}
	gnutls_session_set_ptr(hs->tls, hs);
	gnutls_handshake_set_hook_function(hs->tls, GNUTLS_HANDSHAKE_ANY, GNUTLS_HOOK_POST,
		tls_message_heard);
	hs->in_tls_handshake = true;
	/* A TLS hello first: its bytes are there already. */
	guest->woke = guest->woke || hs->tls_first;
	progress(hs);
}

/* wss: the WebSocket request, then libvncserver goes on with it. */
static void read_request(struct vnc_handshake *hs) {
	struct vnc_guest *guest = hs->guest;
	while (!strstr(hs->request, "\r\n\r\n")) {
		if (hs->request_len == WSS_REQUEST_MAX) {
			vnc_guest_drop(guest, "its request over TLS is too long");
			return;
		}
		ssize_t n = gnutls_record_recv(hs->tls, hs->request + hs->request_len,
			WSS_REQUEST_MAX - hs->request_len);
		if (n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED) {
			watch(hs, WL_EVENT_READABLE);
			return;
		}
		if (n <= 0) {
			vnc_guest_drop(guest, "it hung up after the TLS handshake");
			return;
		}
		hs->request_len += (size_t)n;
		hs->request[hs->request_len] = '\0';
		if (strlen(hs->request) != hs->request_len) {
			vnc_guest_drop(guest, "a NUL byte in its request over TLS");
			return;
		}
	}
	if (!vnc_guest_is_http(hs->request, hs->request_len)) {
		vnc_guest_drop(guest, "not an HTTP request over TLS");
		return;
	}
	struct vnc_server *vnc = guest->vnc;
	vnc_browsers_remember(vnc, guest->host);
	if (vnc_http_is_plain_get(hs->request, hs->request_len)) {
		if (!vnc->http_dir) {
			vnc_guest_drop(guest, "a page asked for over https, but no pages are served");
			return;
		}
		/* https: the page, as over http. */
		struct tls_stream *tls = tls_stream_from_session(hs->tls);
		hs->tls = NULL;
		int fd = guest->fd;
		char *request = xstrdup(hs->request);
		guest->handshake = NULL;
		vnc_handshake_destroy(hs);
		vnc_guest_admit_http(guest);
		vnc_http_start_tls(vnc, fd, tls, request);
		free(request);
		return;
	}
	if (!vnc_guest_libvncserver_may_serve(guest, true)) {
		return;
	}
	char why[384];
	if (!vnc_http_upgrade_allowed(guest->vnc, guest->fd, hs->tls, hs->request, why,
			sizeof(why))) {
		vnc_guest_drop(guest, why);
		return;
	}
	struct tls_stream *tls = hs->tls ? tls_stream_records_from_session(hs->tls) : NULL;
	hs->tls = NULL; /* the relay's now */
	guest->handshake = NULL;
	struct vnc_admission admission = { .request = xstrdup(hs->request) };
	vnc_guest_websocket_admission(guest, true, &admission);
	vnc_handshake_destroy(hs);
	vnc_guest_admit(guest, tls, &admission);
	free(admission.request);
}

static void tls_handshake(struct vnc_handshake *hs) {
	int rc = gnutls_handshake(hs->tls);
	if (rc == GNUTLS_E_AGAIN || rc == GNUTLS_E_INTERRUPTED) {
		bool reads = !gnutls_record_get_direction(hs->tls);
		if (reads) {
			/* Bytes since its last step were half a message: it has stalled. */
			vnc_guest_waits(hs->guest);
		}
		watch(hs, reads ? WL_EVENT_READABLE : WL_EVENT_WRITABLE);
		return;
	}
	if (rc < 0) {
		char why[160];
		snprintf(why, sizeof(why), "the TLS handshake failed: %s", gnutls_strerror(rc));
		vnc_guest_drop(hs->guest, why);
		return;
	}
	hs->in_tls_handshake = false;
	/* The session outlives the handshake (the relay, the file server): no hook after this. */
	gnutls_handshake_set_hook_function(hs->tls, GNUTLS_HANDSHAKE_ANY, GNUTLS_HOOK_POST, NULL);
	gnutls_session_set_ptr(hs->tls, NULL);
	vnc_guest_progressed(hs->guest, VNC_GUEST_TLS_DONE);
	if (hs->tls_first) {
		hs->reading_request = true;
		read_request(hs);
		return;
	}
	hs->step = rfb_security_tls_done(&hs->sec);
	progress(hs);
}

static void progress(struct vnc_handshake *hs) {
	struct vnc_guest *guest = hs->guest;
	for (;;) {
		if (hs->in_tls_handshake) {
			tls_handshake(hs);
			return;
		}
		if (hs->reading_request) {
			read_request(hs);
			return;
		}
		bool gone = false;
		if (!flush(hs, &gone)) {
			if (gone) {
				vnc_guest_drop(guest, "it hung up during the handshake");
			}
			return;
		}
		switch (hs->step) {
		case RFB_SECURITY_STEP_READ:
			if (!read_message(hs, &gone)) {
				if (gone) {
					vnc_guest_drop(guest, "it hung up during the handshake");
				}
				return;
			}
			vnc_guest_progressed(guest, VNC_GUEST_CONNECTED);
			hs->step = rfb_security_feed(&hs->sec, hs->in, hs->in_len);
			if (hs->step == RFB_SECURITY_STEP_FAILED && hs->sec.minor == 0 &&
					vnc_guest_is_http((const char *)hs->in, hs->in_len)) {
				/* A browser that was slow to ask: it retries, and then gets time. */
				vnc_browsers_remember(guest->vnc, guest->host);
			}
			memset(hs->in, 0, hs->in_len);
			hs->in_len = 0;
			break;
		case RFB_SECURITY_STEP_START_TLS:
			start_tls(hs);
			return;
		case RFB_SECURITY_STEP_CHECK_VNC:
			check_vnc_auth(hs);
			return;
		case RFB_SECURITY_STEP_CHECK_PLAIN:
			if (!hs->check) {
				hs->check = account_check_start(guest->vnc->auth.checker,
					hs->sec.user, hs->sec.password, guest->host, handle_checked, hs);
				memset(hs->sec.password, 0, sizeof(hs->sec.password));
				if (!hs->check) {
					vnc_guest_drop(guest, "cannot check the account");
					return;
				}
			}
			watch(hs, 0);
			return;
		case RFB_SECURITY_STEP_DONE:
			admit(hs);
			return;
		case RFB_SECURITY_STEP_FAILED: {
			char why[200];
			snprintf(why, sizeof(why), "%s", hs->sec.error);
			vnc_guest_drop(guest, why);
			return;
		}
		}
	}
}

static int handle_fd(int fd, uint32_t mask, void *data) {
	struct vnc_guest *guest = data;
	bool hung_up = mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR);
	/* While its login is checked nothing is read, and a hangup would repeat. */
	if (hung_up && (!(mask & WL_EVENT_READABLE) || guest->handshake->check)) {
		vnc_guest_drop(guest, NULL);
		return 0;
	}
	if (mask & WL_EVENT_READABLE) {
		vnc_guest_heard(guest);
	}
	progress(guest->handshake);
	return 0;
}

/* What this connection may use (the listening rule made sure it is something). */
static void make_offer(struct vnc_guest *guest, struct rfb_security_offer *offer) {
	struct vnc_server *vnc = guest->vnc;
	const struct options_vnc *options = vnc->options;
	bool passwords = vnc->passwords != NULL;
	bool anyone = !vnc->accounts && !passwords && guest->local;
	memset(offer, 0, sizeof(*offer));
	uint32_t x509[3], anonymous[3];
	int n = 0;
	if (vnc->accounts) {
		x509[n] = VENCRYPT_X509_PLAIN;
		anonymous[n++] = VENCRYPT_TLS_PLAIN;
	}
	if (passwords) {
		x509[n] = VENCRYPT_X509_VNC;
		anonymous[n++] = VENCRYPT_TLS_VNC;
	}
	if (anyone) {
		x509[n] = VENCRYPT_X509_NONE;
		anonymous[n++] = VENCRYPT_TLS_NONE;
	}
	for (int i = 0; i < n; i++) {
		offer->subtypes[offer->n_subtypes++] = x509[i];
	}
	for (int i = 0; options->anonymous_tls && i < n; i++) {
		offer->subtypes[offer->n_subtypes++] = anonymous[i];
	}
	offer->vnc_auth = passwords && (guest->local || options->insecure);
	offer->none = anyone;
	if (guest->refusal[0]) {
		offer->refusal = guest->refusal;
	} else if (guest->must_wait) {
		offer->refusal = VNC_MUST_WAIT_REFUSAL;
	}
}

void vnc_handshake_start(struct vnc_guest *guest, bool tls_first) {
	struct vnc_server *vnc = guest->vnc;
	struct vnc_handshake *hs = zalloc(sizeof(*hs));
	hs->guest = guest;
	hs->tls_first = tls_first;
	guest->handshake = hs;
	guest->source = wl_event_loop_add_fd(vnc->server->loop, guest->fd, WL_EVENT_READABLE,
		handle_fd, guest);
	if (!guest->source) {
		vnc_guest_drop(guest, "cannot watch the connection");
		return;
	}
	if (tls_first) {
		start_tls(hs);
		return;
	}
	uint8_t challenge[16];
	if (getrandom(challenge, sizeof(challenge), 0) != sizeof(challenge)) {
		vnc_guest_drop(guest, "no random bytes for the challenge");
		return;
	}
	struct rfb_security_offer offer;
	make_offer(guest, &offer);
	rfb_security_init(&hs->sec, &offer, challenge);
	hs->step = RFB_SECURITY_STEP_READ;
	hs->view_only = vnc->options->view_only;
	progress(hs);
}
