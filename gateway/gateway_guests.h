/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_GUESTS_H
#define ORIEL_GATEWAY_GUESTS_H

/*
 * What the VNC and RDP fronts share: the listeners, the guests (each on
 * a thread of its own, with a deadline, the pending caps and give-way
 * eviction), the TLS handshake, the login asked of the broker, and the
 * hand-over. A front adds its protocol's login (gateway_vnc_login.c,
 * gateway_rdp_login.c).
 */

#include <gnutls/gnutls.h>
#include <pthread.h>
#include <stdint.h>
#include "remote/preauth_limits.h"
#include "remote/tls_identity.h"
#include "common/util.h" /* monotonic_ms */
#include "gateway/gateway_broker_msg.h"
#include "gateway/gateway_front.h"

#define GATEWAY_FRONT_MAX_LISTEN 16
/*
 * What a refused client hears: any refusal tells no more than a wrong
 * password. The broker's reply carries them; the worker passes them on.
 */
#define GATEWAY_REFUSED "authentication failed"
#define GATEWAY_MUST_WAIT "too many failed logins from your address: wait, then try again"

struct handover_message;
struct gateway_ticket;

enum gateway_guest_stage {
	GUEST_CONNECTED,
	GUEST_TLS_HELLO,   /* its whole TLS ClientHello arrived */
	GUEST_TLS_DONE,    /* its TLS handshake finished */
};

/* A connection that has not logged in yet, on a thread of its own. */
struct gateway_guest {
	struct gateway_front *front;
	int fd;
	char host[64];
	int64_t started_ms;
	/* Under the front's lock: */
	int64_t deadline_ms;
	int64_t heard_ms; /* when its last bytes arrived (or it connected) */
	/*
	 * When its handshake last advanced (0: never): a whole message of
	 * its handshake (RFB, X.224, TLS) or a new stage. Stray bytes do not
	 * count, and a login has few such steps, so a client that trickles
	 * bytes cannot look as if it were moving for long.
	 */
	int64_t progress_ms;
	/* Bytes came during its TLS handshake since its last step, and it waits for more. */
	bool partial;
	/* Its own thread's: bytes came since its last step; its TLS handshake is under way. */
	bool woke;
	bool handshaking;
	/*
	 * How far its login got (enum gateway_guest_stage): of the guests
	 * that may give way, the one least far goes first, so a flood of
	 * stalled handshakes cannot push out a login that is further along.
	 */
	int stage;
	bool checking;  /* its account is being checked: it gives way to nobody */
	bool evicted;   /* another guest took its place, or its time is up: its socket is shut down */
	bool logged_in; /* handing over: no longer a guest, and never shut down */
	bool relaying;  /* logged in, its client relayed by its thread: shut down when the front stops */
	char reason[GATEWAY_BROKER_REASON_MAX]; /* why its login was refused */
	struct gateway_guest *next;
};

struct gateway_front {
	const struct gateway_config *config;
	enum gateway_protocol protocol;
	const char *name; /* "VNC", "RDP": for the log */
	void (*login)(struct gateway_guest *guest);
	void *data; /* the protocol's own (gateway_rdp_login.c: its certificate) */
	struct preauth_limits limits;
	struct tls_identity tls;
	int broker_fd; /* gateway_broker.h */
	int listen_fds[GATEWAY_FRONT_MAX_LISTEN];
	int n_listen;
	int stop_fd; /* eventfd: the accepting thread ends */
	pthread_t accept_thread;
	bool running; /* accept_thread was started */

	pthread_mutex_t lock; /* what follows */
	pthread_cond_t guests_gone;
	struct gateway_guest *guests;
	int n_guests;
	bool stopping;
};


/* gateway_vnc_login.c, gateway_rdp_login.c: one guest's handshake, login and hand-over. */
void gateway_vnc_login(struct gateway_guest *guest);
void gateway_rdp_login(struct gateway_guest *guest);
/* gateway_rdp_login.c: the front's own state (its certificate for FreeRDP); false on failure. */
bool gateway_rdp_front_init(struct gateway_front *front);
void gateway_rdp_front_finish(struct gateway_front *front);

/* gateway_guests.c */
/* The guest logged in: it stops being one. False when it was evicted before. */
bool gateway_guest_logged_in(struct gateway_guest *guest);
/* Bytes from the guest arrived: it is not idle. */
void gateway_guest_heard(struct gateway_guest *guest);
/* It waits for the client again: bytes heard since its last step in a TLS handshake were half a message. */
void gateway_guest_waits(struct gateway_guest *guest);
/* Its credentials are being checked (true), or no longer (false). */
void gateway_guest_checking(struct gateway_guest *guest, bool checking);
/* The guest's login got this far (a step of its handshake, when further than before). */
void gateway_guest_reached(struct gateway_guest *guest, enum gateway_guest_stage stage);
/* A whole message of its handshake arrived: it is moving. */
void gateway_guest_progressed(struct gateway_guest *guest);
/* Its deadline is now ms from now. */
void gateway_guest_extend(struct gateway_guest *guest, int ms);
/* Its client is relayed from now on (after gateway_guest_logged_in). */
void gateway_guest_relaying(struct gateway_guest *guest);
/* The guest's thread is done with it: closes its socket (the gateway's copy) and frees it. */
void gateway_guest_done(struct gateway_guest *guest);

/* gateway_guest_login.c: the steps of a login that both fronts take. */
/*
 * Waits for the guest's socket (POLLIN or POLLOUT); false at the
 * deadline (ETIMEDOUT) or when the socket was shut down.
 */
bool gateway_guest_wait(struct gateway_guest *guest, short events);
/* Sends all of buf, unencrypted, by the deadline; false when it cannot. */
bool gateway_guest_send(struct gateway_guest *guest, const uint8_t *buf, size_t len);
/* The same, on another of its descriptors (e.g. a socketpair's end). */
bool gateway_guest_wait_on(struct gateway_guest *guest, int fd, short events);
/* gateway_guest_wait_on for io_all.h's loops: data is the guest. */
bool gateway_guest_wait_io(void *guest, int fd, short events);
/* The same, on any of n descriptors. */
struct pollfd;
bool gateway_guest_poll(struct gateway_guest *guest, struct pollfd *fds, int n);
/*
 * The TLS server handshake on the guest's socket, with the front's
 * certificate: TLS 1.3, or 1.2 with an AEAD cipher (what a session
 * carries on, tls_record.h). NULL, with a sentence in why, when it fails
 * or does not finish by the deadline.
 */
gnutls_session_t gateway_guest_start_tls(struct gateway_guest *guest, char *why,
	size_t why_size);
/*
 * The login, checked by the broker (gateway_broker_check_login: the
 * throttle, who may log in, PAM), and then the session that takes her
 * client: its hand-over socket, or -1 with the broker's reason for the
 * client (GATEWAY_REFUSED for any refusal, GATEWAY_MUST_WAIT). Wipes
 * password.
 */
int gateway_guest_check_login(struct gateway_guest *guest, const char *user,
	char *password, uint16_t *flags, const char **reason);
/*
 * The same at the RDP front: the broker keeps her session's socket in a
 * ticket, whose routing token and cookie come into token and cookie.
 */
bool gateway_guest_check_rdp_login(struct gateway_guest *guest, const char *user,
	char *password, char token[GATEWAY_BROKER_TOKEN_MAX],
	char cookie[GATEWAY_BROKER_COOKIE_MAX], const char **reason);
/*
 * The ticket of token, taken from the broker into *ticket; false with
 * why for the client when there is none (GATEWAY_REFUSED; the broker
 * counted the guess against the address and logged it) or the address
 * must wait (GATEWAY_MUST_WAIT).
 */
bool gateway_guest_redeem(struct gateway_guest *guest, const char *token,
	struct gateway_ticket *ticket, char *why, size_t why_size);
/* Whether a connection that ended for why was logged already, by the broker (a refusal). */
bool gateway_guest_refusal_logged(const char *why);
/* user with control characters made '?', for the log. */
void gateway_printable(const char *user, char *out, size_t size);
/*
 * Sends message (magic, version, request and peer filled in here) with
 * the guest's socket to the session on sock and waits for its answer.
 * False with a sentence in why.
 */
bool gateway_guest_hand_over(struct gateway_guest *guest, int sock,
	struct handover_message *message, char *why, size_t why_size);
/* The same, passing fd instead of the guest's socket (the RDP relay's socketpair end). */
bool gateway_guest_hand_over_fd(struct gateway_guest *guest, int sock,
	struct handover_message *message, int fd, char *why, size_t why_size);

#endif
