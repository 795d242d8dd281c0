/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_BROKER_H
#define ORIEL_GATEWAY_BROKER_H

/*
 * The gateway's root side, for its unprivileged network worker
 * (gateway_worker.h): the failed-login throttle, the account check
 * (PAM), who may log in, the sessions (started and found), and the RDP
 * tickets. It answers the worker's requests (gateway_broker_msg.h), each
 * on a thread of its own, so a slow PAM holds no other login. A session's
 * hand-over socket reaches the worker only in the reply to its user's
 * login, or to a ticket redeemed.
 */

#include <pthread.h>
#include <stdint.h>
#include "capture/remote/auth_throttle.h"
#include "gateway/gateway_rdp_tickets.h"

struct gateway_config;
struct gateway_sessions;
struct account_checker;

/* One front's logins, as the broker checks them. */
struct gateway_broker_front {
	const char *name; /* "VNC", "RDP": for the log */
	struct account_checker *checker;
	struct gateway_sessions *sessions;
	pthread_mutex_t lock; /* the throttle */
	struct auth_throttle throttle;
};

struct gateway_broker {
	struct gateway_broker_front fronts[2]; /* by enum gateway_broker_protocol */
	struct gateway_tickets tickets;
	pthread_mutex_t lock; /* what follows */
	pthread_cond_t idle;
	int n_answering;
};

/* NULL with a sentence in error. sessions must outlive it. */
struct gateway_broker *gateway_broker_create(const struct gateway_config *config,
	struct gateway_sessions *sessions, char *error, size_t error_size);
/* Waits for the answers under way. NULL is a no-op. */
void gateway_broker_destroy(struct gateway_broker *broker);

/*
 * Answers the requests that come on fd (the broker's end of a worker's
 * socketpair) until the worker closes it or ends. fd stays the caller's.
 */
void gateway_broker_serve(struct gateway_broker *broker, int fd);

/*
 * gateway_broker_login.c: the login (throttled per address; checked
 * through PAM; not root; an allowed user), and then the session that
 * takes her client: its hand-over socket, or -1 with a reason for the
 * client. Wipes password.
 */
int gateway_broker_check_login(struct gateway_broker_front *front, const char *host,
	const char *user, char *password, uint16_t *flags, const char **reason);

#endif
