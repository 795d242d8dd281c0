/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "capture/remote/account_check.h"
#include "capture/remote/handover.h"
#include "capture/remote/tls_record.h"
#include "gateway/gateway_guests.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_sessions.h"

/*
 * The steps of a login that the VNC and RDP fronts share: waiting on the
 * client until the guest's deadline, the TLS handshake, the account check
 * with its throttle, and the hand-over to the session.
 */

/* After the login, the session may take a while to start: the client waits this long. */
#define AFTER_LOGIN_MS 15000
#define HANDOVER_REPLY_MS 10000

bool gateway_guest_wait(struct gateway_guest *guest, short events) {
	return gateway_guest_wait_on(guest, guest->fd, events);
}

bool gateway_guest_wait_on(struct gateway_guest *guest, int fd, short events) {
	struct pollfd p = { .fd = fd, .events = events };
	return gateway_guest_poll(guest, &p, 1);
}

bool gateway_guest_poll(struct gateway_guest *guest, struct pollfd *fds, int n) {
	/* Only its own thread writes its deadline: no lock to read it here. */
	int left = (int)(guest->deadline_ms - monotonic_ms());
	if (left <= 0) {
		errno = ETIMEDOUT;
		return false;
	}
	gateway_guest_waits(guest);
	int rc = poll(fds, (nfds_t)n, left);
	if (rc == 0) {
		errno = ETIMEDOUT;
	}
	for (int i = 0; rc > 0 && i < n; i++) {
		if (fds[i].revents & POLLIN) {
			gateway_guest_heard(guest);
			break;
		}
	}
	return rc > 0 || (rc < 0 && errno == EINTR);
}

bool gateway_guest_send(struct gateway_guest *guest, const uint8_t *buf, size_t len) {
	size_t sent = 0;
	while (sent < len) {
		ssize_t n = send(guest->fd, buf + sent, len - sent, MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (!gateway_guest_wait(guest, POLLOUT)) {
				return false;
			}
			continue;
		}
		if (n <= 0) {
			return false;
		}
		sent += (size_t)n;
	}
	return true;
}

/*
 * Every whole handshake message from the client moves the guest on; a
 * whole ClientHello sets it apart from stalled ones at once, before the
 * server's answer is even computed.
 */
static int handshake_heard(gnutls_session_t tls, unsigned int type, unsigned int when,
		unsigned int incoming, const gnutls_datum_t *message) {
	(void)when;
	(void)message;
	struct gateway_guest *guest = gnutls_session_get_ptr(tls);
	if (guest && incoming) {
		if (type == GNUTLS_HANDSHAKE_CLIENT_HELLO) {
			gateway_guest_reached(guest, GUEST_TLS_HELLO);
		}
		gateway_guest_progressed(guest);
	}
	return 0;
}

gnutls_session_t gateway_guest_start_tls(struct gateway_guest *guest, char *why,
		size_t why_size) {
	gnutls_session_t tls = tls_identity_new_session(&guest->front->tls, guest->fd, false);
	/* TLS 1.3, or 1.2 with an AEAD cipher: what a session carries on (tls_record.h). */
	if (!tls || gnutls_priority_set_direct(tls,
			"NORMAL:-VERS-TLS1.1:-VERS-TLS1.0:-CIPHER-ALL:+AES-256-GCM:+AES-128-GCM:"
			"+CHACHA20-POLY1305", NULL) < 0) {
		snprintf(why, why_size, "cannot start TLS");
		if (tls) {
			gnutls_deinit(tls);
		}
		return NULL;
	}
	guest->handshaking = true;
	guest->woke = false;
	gnutls_session_set_ptr(tls, guest);
	gnutls_handshake_set_hook_function(tls, GNUTLS_HANDSHAKE_ANY, GNUTLS_HOOK_POST,
		handshake_heard);
	int rc;
	while ((rc = gnutls_handshake(tls)) < 0) {
		if (gnutls_error_is_fatal(rc)) {
			guest->handshaking = false;
			snprintf(why, why_size, "the TLS handshake failed: %s", gnutls_strerror(rc));
			gnutls_deinit(tls);
			return NULL;
		}
		if (!gateway_guest_wait(guest, gnutls_record_get_direction(tls) ? POLLOUT : POLLIN)) {
			guest->handshaking = false;
			snprintf(why, why_size, "the TLS handshake did not finish in time");
			gnutls_deinit(tls);
			return NULL;
		}
	}
	/* The session outlives the guest (RDP's bridge, the hand-over): no hook after this. */
	gnutls_handshake_set_hook_function(tls, GNUTLS_HANDSHAKE_ANY, GNUTLS_HOOK_POST, NULL);
	gnutls_session_set_ptr(tls, NULL);
	guest->handshaking = false;
	gateway_guest_reached(guest, GUEST_TLS_DONE);
	return tls;
}

void gateway_printable(const char *user, char *out, size_t size) {
	snprintf(out, size, "%s", user);
	for (char *c = out; *c; c++) {
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			*c = '?';
		}
	}
}

int gateway_guest_check_login(struct gateway_guest *guest, const char *user,
		char *password, uint16_t *flags, const char **reason) {
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	bool allowed = auth_throttle_allowed(&front->throttle, guest->host, monotonic_ms());
	pthread_mutex_unlock(&front->lock);
	if (!allowed) {
		gnutls_memset(password, 0, strlen(password));
		*reason = "too many failed logins from your address: wait, then try again";
		gateway_log("%s: %s must wait before logging in again", front->name,
			guest->host);
		return -1;
	}
	bool view_only = false;
	/* From here it waits for us, not we for it: it gives way to nobody. */
	gateway_guest_checking(guest, true);
	/* A name longer than a session can be told is no account's. */
	bool ok = account_check_run(front->checker, user, password, guest->host,
		&view_only) && strlen(user) < sizeof(((struct handover_message *)0)->user);
	gnutls_memset(password, 0, strlen(password));
	pthread_mutex_lock(&front->lock);
	if (ok) {
		auth_throttle_succeeded(&front->throttle, guest->host);
	} else {
		auth_throttle_failed(&front->throttle, guest->host, monotonic_ms());
	}
	pthread_mutex_unlock(&front->lock);
	char printable[128];
	gateway_printable(user, printable, sizeof(printable));
	if (!ok) {
		gateway_guest_checking(guest, false);
		*reason = "authentication failed";
		gateway_log("%s: failed login as \"%s\" from %s", front->name, printable,
			guest->host);
		return -1;
	}
	gateway_guest_extend(guest, AFTER_LOGIN_MS);
	char error[256] = "";
	int sock = gateway_sessions_connect(front->sessions, user, flags, error, sizeof(error));
	if (sock < 0) {
		bool silent = errno == ETIMEDOUT;
		gateway_guest_checking(guest, false);
		*reason = silent ? "your session does not answer" : "your session cannot start";
		gateway_log("%s: \"%s\" from %s logged in, but: %s", front->name,
			printable, guest->host, error);
		return -1;
	}
	gateway_log("%s: \"%s\" logged in from %s", front->name, printable, guest->host);
	return sock;
}

bool gateway_guest_hand_over(struct gateway_guest *guest, int sock,
		struct handover_message *message, char *why, size_t why_size) {
	if (!gateway_guest_logged_in(guest)) {
		snprintf(why, why_size, "it gave way to another connection");
		return false;
	}
	message->magic = HANDOVER_MAGIC;
	message->version = HANDOVER_VERSION;
	message->request = HANDOVER_CONNECTION;
	snprintf(message->peer, sizeof(message->peer), "%s", guest->host);
	struct handover_reply reply;
	if (!handover_send(sock, message, guest->fd, HANDOVER_REPLY_MS, &reply)) {
		snprintf(why, why_size, "the session did not answer: %s", strerror(errno));
		return false;
	}
	if (!reply.ok) {
		snprintf(why, why_size, "the session refused it: %s", reply.error);
		return false;
	}
	return true;
}
