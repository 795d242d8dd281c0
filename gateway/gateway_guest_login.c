/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/io_all.h"
#include "remote/account_check.h" /* ACCOUNT_CHECK_FAIL_MS */
#include "remote/handover.h"
#include "remote/tls_record.h"
#include "gateway/gateway_guests.h"
#include "gateway/gateway_broker_msg.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_rdp_tickets.h"
#include "gateway/gateway_worker.h"

/*
 * The steps of a login that the VNC and RDP fronts share: waiting on the
 * client until the guest's deadline, the TLS handshake, the login asked of
 * the broker (gateway_broker.h), and the hand-over to the session.
 */

/* After the login, the session may take a while to start: the client waits this long. */
#define AFTER_LOGIN_MS 15000
#define HANDOVER_REPLY_MS 10000
/* PAM, then a session that may be starting: the broker answers within this. */
#define BROKER_REPLY_MS (AFTER_LOGIN_MS + 30000)

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

/* The guest's wait, as io_all.h asks for it. */
bool gateway_guest_wait_io(void *guest, int fd, short events) {
	return gateway_guest_wait_on(guest, fd, events);
}

bool gateway_guest_send(struct gateway_guest *guest, const uint8_t *buf, size_t len) {
	return io_send_all(guest->fd, buf, len, gateway_guest_wait_io, guest);
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

/*
 * Asks the broker to check the login: the reply, and the socket that came
 * with it (or -1). Wipes password.
 */
static bool ask_login(struct gateway_guest *guest, const char *user, char *password,
		struct gateway_broker_reply *reply, int *sock) {
	struct gateway_front *front = guest->front;
	struct gateway_broker_request *request = calloc(1, sizeof(*request));
	bool fits = request && strlen(user) < sizeof(request->user) &&
		strlen(password) < sizeof(request->password);
	if (fits) {
		request->type = GATEWAY_BROKER_LOGIN;
		request->front = front->protocol == GATEWAY_RDP ? GATEWAY_BROKER_RDP :
			GATEWAY_BROKER_VNC;
		snprintf(request->host, sizeof(request->host), "%s", guest->host);
		memcpy(request->user, user, strlen(user) + 1);
		memcpy(request->password, password, strlen(password) + 1);
	}
	gnutls_memset(password, 0, strlen(password));
	/* From here it waits for us, not we for it: it gives way to nobody. */
	gateway_guest_checking(guest, true);
	bool asked = fits && gateway_broker_call(front->broker_fd, request, reply, sock,
		BROKER_REPLY_MS);
	if (request) {
		explicit_bzero(request, sizeof(*request));
		free(request);
	}
	if (!asked) {
		reply->ok = false;
		snprintf(reply->reason, sizeof(reply->reason), "%s", fits ?
			"the login cannot be checked now" : GATEWAY_REFUSED);
		gateway_log("%s: the login from %s was not checked: %s", front->name,
			guest->host, fits ? "the broker did not answer" : "too long");
		if (!fits) {
			/* No account has such a name or password; still, as late as any refusal. */
			struct timespec band = { ACCOUNT_CHECK_FAIL_MS / 1000,
				(ACCOUNT_CHECK_FAIL_MS % 1000) * 1000000L };
			while (nanosleep(&band, &band) < 0 && errno == EINTR) {
			}
		}
	}
	if (!reply->ok) {
		gateway_guest_checking(guest, false);
		snprintf(guest->reason, sizeof(guest->reason), "%s", reply->reason);
		return false;
	}
	gateway_guest_extend(guest, AFTER_LOGIN_MS);
	return true;
}

int gateway_guest_check_login(struct gateway_guest *guest, const char *user,
		char *password, uint16_t *flags, const char **reason) {
	struct gateway_broker_reply reply;
	int sock = -1;
	if (!ask_login(guest, user, password, &reply, &sock) || sock < 0) {
		*reason = guest->reason[0] ? guest->reason : "your session cannot start";
		if (sock >= 0) {
			close(sock);
		}
		return -1;
	}
	*flags = reply.flags;
	explicit_bzero(&reply, sizeof(reply));
	return sock;
}

bool gateway_guest_check_rdp_login(struct gateway_guest *guest, const char *user,
		char *password, char token[GATEWAY_BROKER_TOKEN_MAX],
		char cookie[GATEWAY_BROKER_COOKIE_MAX], const char **reason) {
	struct gateway_broker_reply reply;
	int sock = -1;
	bool ok = ask_login(guest, user, password, &reply, &sock);
	if (sock >= 0) {
		close(sock); /* the broker's ticket holds her session's */
	}
	if (!ok) {
		*reason = guest->reason;
		return false;
	}
	memcpy(token, reply.token, GATEWAY_BROKER_TOKEN_MAX);
	memcpy(cookie, reply.cookie, GATEWAY_BROKER_COOKIE_MAX);
	explicit_bzero(&reply, sizeof(reply));
	return true;
}

bool gateway_guest_redeem(struct gateway_guest *guest, const char *token,
		struct gateway_ticket *ticket, char *why, size_t why_size) {
	struct gateway_broker_request *request = calloc(1, sizeof(*request));
	struct gateway_broker_reply reply;
	int sock = -1;
	bool asked = false;
	if (request) {
		request->type = GATEWAY_BROKER_REDEEM;
		request->front = GATEWAY_BROKER_RDP;
		snprintf(request->host, sizeof(request->host), "%s", guest->host);
		/* A token too long to be one is still a guess: the broker counts it, as "". */
		if (strlen(token) < sizeof(request->token)) {
			memcpy(request->token, token, strlen(token) + 1);
		}
		asked = gateway_broker_call(guest->front->broker_fd, request, &reply, &sock,
			BROKER_REPLY_MS);
	}
	free(request);
	bool ok = asked && reply.ok && sock >= 0;
	if (!ok) {
		if (sock >= 0) {
			close(sock);
		}
		snprintf(why, why_size, "%s", !asked ? "the routing token cannot be checked now" :
			reply.ok ? "its session's socket did not come" : reply.reason);
		return false;
	}
	memset(ticket, 0, sizeof(*ticket));
	snprintf(ticket->user, sizeof(ticket->user), "%s", reply.user);
	snprintf(ticket->cookie, sizeof(ticket->cookie), "%s", reply.cookie);
	snprintf(ticket->token, sizeof(ticket->token), "%s", token);
	ticket->flags = reply.flags;
	ticket->sock = sock;
	explicit_bzero(&reply, sizeof(reply));
	return true;
}

bool gateway_guest_refusal_logged(const char *why) {
	return strcmp(why, GATEWAY_REFUSED) == 0 || strcmp(why, GATEWAY_MUST_WAIT) == 0;
}

bool gateway_guest_hand_over(struct gateway_guest *guest, int sock,
		struct handover_message *message, char *why, size_t why_size) {
	return gateway_guest_hand_over_fd(guest, sock, message, guest->fd, why, why_size);
}

bool gateway_guest_hand_over_fd(struct gateway_guest *guest, int sock,
		struct handover_message *message, int fd, char *why, size_t why_size) {
	if (!gateway_guest_logged_in(guest)) {
		snprintf(why, why_size, "it gave way to another connection");
		return false;
	}
	message->magic = HANDOVER_MAGIC;
	message->version = HANDOVER_VERSION;
	message->request = HANDOVER_CONNECTION;
	snprintf(message->peer, sizeof(message->peer), "%s", guest->host);
	struct handover_reply reply;
	if (!handover_send(sock, message, fd, HANDOVER_REPLY_MS, &reply)) {
		snprintf(why, why_size, "the session did not answer: %s", strerror(errno));
		return false;
	}
	if (!reply.ok) {
		snprintf(why, why_size, "the session refused it: %s", reply.error);
		return false;
	}
	return true;
}
