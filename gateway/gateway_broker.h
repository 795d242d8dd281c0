/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_BROKER_H
#define ORIEL_GATEWAY_BROKER_H

/*
 * The gateway's root side, for its unprivileged network worker
 * (gateway_worker.h): the failed-login throttle, the account check
 * (PAM), who may log in (gateway_login_policy.h), the sessions (started
 * and found), the RDP tickets, and the failures' summarised log lines. It answers the worker's requests (gateway_broker_msg.h), each
 * on a thread of its own, so a slow PAM holds no other login. A session's
 * hand-over socket reaches the worker only in the reply to its user's
 * login, or to a ticket redeemed.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "remote/auth_throttle.h"
#include "gateway/gateway_rdp_tickets.h"

struct gateway_config;
struct gateway_sessions;
struct account_checker;

/* One front's logins, as the broker checks them. */
struct gateway_broker_front {
	const char *name; /* "VNC", "RDP": for the log */
	const struct gateway_config *config; /* who may log in */
	struct account_checker *checker;
	struct gateway_sessions *sessions;
	pthread_mutex_t lock; /* the throttle */
	struct auth_throttle throttle; /* of every guess: passwords, routing tokens */
};

struct gateway_broker {
	struct gateway_broker_front fronts[2]; /* by enum gateway_broker_protocol */
	struct gateway_tickets tickets;
	pthread_mutex_t lock; /* what follows */
	pthread_cond_t idle;
	int n_answering;
};

/*
 * NULL with a sentence in error (a PAM service with no file among
 * them). config and sessions must outlive it.
 */
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
 * gateway_broker_login.c: the login (throttled per address; who may log
 * in; checked through PAM), and then the session that takes her client:
 * its hand-over socket, or -1 with a reason for the client
 * (GATEWAY_REFUSED, GATEWAY_MUST_WAIT, or that her session cannot start).
 * Wipes password. Any refusal counts against host's throttle, is logged
 * with its true reason, and comes as late as a wrong password's. host
 * is the address the worker claims: the best the broker can know.
 */
int gateway_broker_check_login(struct gateway_broker_front *front, const char *host,
	const char *user, char *password, uint16_t *flags, const char **reason);
/* False while host must wait after failures (logged, summarised). */
bool gateway_broker_may_try(struct gateway_broker_front *front, const char *host);
/*
 * A failure of host's (a login, a routing token): counted against its
 * throttle, and logged after "FRONT: " (summarised per address:
 * gateway_log_summarised).
 */
void gateway_broker_failed(struct gateway_broker_front *front, const char *host,
	const char *format, ...) __attribute__((format(printf, 3, 4)));
/* The same, not logged. */
void gateway_broker_count_failure(struct gateway_broker_front *front, const char *host);

#endif
