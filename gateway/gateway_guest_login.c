/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
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
#include "gateway/gateway_login_policy.h"
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
	int rc;
	while ((rc = gnutls_handshake(tls)) < 0) {
		if (gnutls_error_is_fatal(rc)) {
			snprintf(why, why_size, "the TLS handshake failed: %s", gnutls_strerror(rc));
			gnutls_deinit(tls);
			return NULL;
		}
		/* A whole ClientHello sets this guest apart from stalled ones. */
		if ((int)gnutls_handshake_get_last_in(tls) >= GNUTLS_HANDSHAKE_CLIENT_HELLO) {
			gateway_guest_reached(guest, GUEST_TLS_HELLO);
		}
		if (!gateway_guest_wait(guest, gnutls_record_get_direction(tls) ? POLLOUT : POLLIN)) {
			snprintf(why, why_size, "the TLS handshake did not finish in time");
			gnutls_deinit(tls);
			return NULL;
		}
	}
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

bool gateway_guest_may_try(struct gateway_guest *guest) {
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	bool allowed = auth_throttle_allowed(&front->throttle, guest->host, monotonic_ms());
	pthread_mutex_unlock(&front->lock);
	if (!allowed) {
		gateway_log_summarised("tries while it must wait", guest->host,
			"%s: %s must wait before logging in again",
			front->name, guest->host);
	}
	return allowed;
}

void gateway_guest_count_failure(struct gateway_guest *guest) {
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	auth_throttle_failed(&front->throttle, guest->host, monotonic_ms());
	pthread_mutex_unlock(&front->lock);
}

void gateway_guest_failed(struct gateway_guest *guest, const char *format, ...) {
	struct gateway_front *front = guest->front;
	gateway_guest_count_failure(guest);
	char line[512];
	va_list args;
	va_start(args, format);
	vsnprintf(line, sizeof(line), format, args);
	va_end(args);
	gateway_log_summarised("failures", guest->host, "%s: %s", front->name, line);
}

bool gateway_guest_refusal_logged(const char *why) {
	return strcmp(why, GATEWAY_REFUSED) == 0 || strcmp(why, GATEWAY_MUST_WAIT) == 0;
}

/*
 * Whether user may log in at all, before her password: false with why.
 * A name longer than a session can be told is no account's.
 */
static bool may_log_in(struct gateway_guest *guest, const char *user, char *why,
		size_t why_size) {
	if (strlen(user) >= sizeof(((struct handover_message *)0)->user)) {
		snprintf(why, why_size, "the name is too long");
		return false;
	}
	return gateway_login_policy_check(guest->front->config, user, why, why_size);
}

int gateway_guest_check_login(struct gateway_guest *guest, const char *user,
		char *password, uint16_t *flags, const char **reason) {
	struct gateway_front *front = guest->front;
	if (!gateway_guest_may_try(guest)) {
		gnutls_memset(password, 0, strlen(password));
		*reason = GATEWAY_MUST_WAIT;
		return -1;
	}
	char refusal[256];
	bool may = may_log_in(guest, user, refusal, sizeof(refusal));
	bool view_only = false;
	/* From here it waits for us, not we for it: it gives way to nobody. */
	gateway_guest_checking(guest, true);
	/* Refused or not, PAM checks the password, and a refusal takes as long. */
	bool ok = false;
	if (may) {
		ok = account_check_run(front->checker, user, password, guest->host, &view_only);
	} else {
		account_check_run_refused(front->checker, user, password, guest->host);
	}
	gnutls_memset(password, 0, strlen(password));
	char printable[128];
	gateway_printable(user, printable, sizeof(printable));
	if (!ok) {
		gateway_guest_checking(guest, false);
		*reason = GATEWAY_REFUSED;
		if (may) {
			gateway_guest_failed(guest, "failed login as \"%s\" from %s", printable,
				guest->host);
		} else {
			gateway_guest_failed(guest, "refused \"%s\" from %s: %s", printable,
				guest->host, refusal);
		}
		return -1;
	}
	pthread_mutex_lock(&front->lock);
	auth_throttle_succeeded(&front->throttle, guest->host);
	pthread_mutex_unlock(&front->lock);
	gateway_guest_extend(guest, AFTER_LOGIN_MS);
	char error[256] = "";
	int sock = gateway_sessions_connect(front->sessions, user, flags, error, sizeof(error));
	if (sock < 0) {
		gateway_guest_checking(guest, false);
		*reason = "your session cannot start";
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
