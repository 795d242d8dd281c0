/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>
#include <gnutls/gnutls.h>
#include "common/io_all.h"
#include "remote/handover.h"
#include "remote/tls_record.h"
#include "remote/vnc/rfb_security.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_guests.h"
#include "gateway/gateway_web.h"

/*
 * One connection, on its own thread, from the RFB greeting to the
 * hand-over: VeNCrypt X509Plain over TLS (1.3, or 1.2 with an AEAD
 * cipher: what a session can carry on), the login through PAM, the user's
 * session found or started, SecurityResult, and then the socket and the
 * TLS state go to the session. Every wait on the client ends at the
 * guest's deadline, or when another guest takes its place.
 */

struct login {
	struct gateway_guest *guest;
	gnutls_session_t tls;
	struct rfb_security sec;
	uint8_t in[2 * RFB_SECURITY_MAX_CREDENTIAL + 16];
};

static bool wait_for(struct login *login, short events) {
	return gateway_guest_wait(login->guest, events);
}

static bool send_all(struct login *login, const uint8_t *buf, size_t len) {
	if (!login->tls) {
		return gateway_guest_send(login->guest, buf, len);
	}
	return gateway_guest_tls_send(login->guest, login->tls, buf, len);
}

/* Exactly len bytes: never more, so nothing after the handshake is read here. */
static bool read_exact(struct login *login, uint8_t *buf, size_t len) {
	if (!login->tls) {
		return io_recv_all(login->guest->fd, buf, len, gateway_guest_wait_io, login->guest);
	}
	size_t got = 0;
	while (got < len) {
		ssize_t n = gnutls_record_recv(login->tls, buf + got, len - got);
		if (n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED) {
			if (!wait_for(login, POLLIN)) {
				return false;
			}
			continue;
		}
		if (n <= 0) {
			return false;
		}
		got += (size_t)n;
	}
	return true;
}

static bool flush(struct login *login) {
	bool ok = send_all(login, login->sec.out, login->sec.out_len);
	rfb_security_sent(&login->sec);
	return ok;
}

static bool start_tls(struct login *login, char *why, size_t why_size) {
	login->tls = gateway_guest_start_tls(login->guest, why, why_size);
	return login->tls != NULL;
}

/* The login, and the session that takes the viewer: its hand-over socket, or -1. */
static int check_login(struct login *login, uint16_t *flags, const char **reason) {
	login->sec.user[sizeof(login->sec.user) - 1] = '\0';
	int sock = gateway_guest_check_login(login->guest, login->sec.user,
		login->sec.password, flags, reason);
	gnutls_memset(login->sec.password, 0, sizeof(login->sec.password));
	return sock;
}

bool gateway_vnc_hand_over(struct gateway_guest *guest, gnutls_session_t tls,
		const struct rfb_security *sec, int sock, uint16_t flags,
		bool (*add_pending)(void *data, struct handover_message *message, char *why,
			size_t why_size),
		void *data, char *why, size_t why_size) {
	struct handover_message *message = calloc(1, sizeof(*message));
	if (!message) {
		snprintf(why, why_size, "out of memory");
		return false;
	}
	message->protocol = HANDOVER_VNC;
	message->flags = flags; /* the session's policy: take-over drops her other viewers */
	message->rfb_minor = (uint16_t)sec->minor;
	memcpy(message->user, sec->user, strlen(sec->user) + 1); /* checked */
	bool ok = (!add_pending || add_pending(data, message, why, why_size)) &&
		tls_record_export(tls, &message->tls, why, why_size) &&
		gateway_guest_hand_over(guest, sock, message, why, why_size);
	gnutls_memset(message, 0, sizeof(*message));
	free(message);
	return ok;
}

void gateway_vnc_login(struct gateway_guest *guest) {
	/* A browser (https) shows itself first; a VNC viewer waits for the greeting. */
	if (gateway_web_takes(guest->front->data, guest)) {
		return;
	}
	struct login login = { .guest = guest };
	struct rfb_security_offer offer = {
		.subtypes = { VENCRYPT_X509_PLAIN }, .n_subtypes = 1,
	};
	uint8_t challenge[16];
	char why[256] = "";
	int sock = -1;
	uint16_t flags = 0;
	if (getrandom(challenge, sizeof(challenge), 0) != sizeof(challenge)) {
		snprintf(why, sizeof(why), "no random bytes");
		goto out;
	}
	rfb_security_init(&login.sec, &offer, challenge);
	enum rfb_security_step step = RFB_SECURITY_STEP_READ;
	for (;;) {
		if (!flush(&login)) {
			snprintf(why, sizeof(why), "it hung up, or did not log in in time");
			goto out;
		}
		switch (step) {
		case RFB_SECURITY_STEP_READ: {
			size_t wants = rfb_security_wants(&login.sec);
			if (!read_exact(&login, login.in, wants)) {
				snprintf(why, sizeof(why), "it hung up, or did not log in in time");
				goto out;
			}
			/* A whole message of the handshake: it is moving. */
			gateway_guest_progressed(guest);
			step = rfb_security_feed(&login.sec, login.in, wants);
			memset(login.in, 0, wants);
			break;
		}
		case RFB_SECURITY_STEP_START_TLS:
			if (!start_tls(&login, why, sizeof(why))) {
				goto out;
			}
			step = rfb_security_tls_done(&login.sec);
			break;
		case RFB_SECURITY_STEP_CHECK_VNC:
			/* Never offered. */
			step = rfb_security_checked(&login.sec, false, "not offered");
			break;
		case RFB_SECURITY_STEP_CHECK_PLAIN: {
			const char *reason = NULL;
			sock = check_login(&login, &flags, &reason);
			step = rfb_security_checked(&login.sec, sock >= 0, reason);
			break;
		}
		case RFB_SECURITY_STEP_DONE:
			if (gateway_vnc_hand_over(login.guest, login.tls, &login.sec, sock, flags, NULL, NULL,
					why, sizeof(why))) {
				why[0] = '\0';
			}
			goto out;
		case RFB_SECURITY_STEP_FAILED:
			flush(&login);
			if (!why[0]) {
				snprintf(why, sizeof(why), "%s", login.sec.error);
			}
			goto out;
		}
	}
out:
	if (!why[0]) {
		gateway_log_debug("VNC: %s went to its session", guest->host);
	} else if (!gateway_guest_refusal_logged(why)) {
		gateway_log("VNC: closing the connection from %s: %s",
			guest->host, why);
	}
	if (sock >= 0) {
		close(sock);
	}
	rfb_security_finish(&login.sec);
	if (login.tls) {
		gnutls_deinit(login.tls);
	}
	gateway_guest_done(guest);
}
