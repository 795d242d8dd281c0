/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_BROKER_MSG_H
#define ORIEL_GATEWAY_BROKER_MSG_H

/*
 * What the gateway's unprivileged network worker asks of its root broker,
 * and what it answers (gateway_broker.h): fixed-size messages, one per
 * SOCK_SEQPACKET datagram. Each request brings, by SCM_RIGHTS, the socket
 * its reply goes to, so replies need no matching and the broker answers
 * many at once. Pure: no I/O, so the fuzzer decodes what a compromised
 * worker could send.
 *
 * - LOGIN {front, peer address, user, password}: the account check and
 *   the throttle; then, at the VNC front, the user's session's hand-over
 *   socket comes with the reply; at the RDP front, a ticket (routing
 *   token and cookie) for the redirected connection.
 * - REDEEM {peer address, routing token}: the ticket, once; its user,
 *   flags and cookie, and her session's hand-over socket.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GATEWAY_BROKER_HOST_MAX 64
#define GATEWAY_BROKER_CREDENTIAL_MAX 512 /* user and password, with their NUL */
#define GATEWAY_BROKER_TOKEN_MAX 33       /* GATEWAY_TOKEN_LEN + 1 */
#define GATEWAY_BROKER_COOKIE_MAX 65      /* GATEWAY_COOKIE_LEN + 1 */
#define GATEWAY_BROKER_REASON_MAX 128
#define GATEWAY_BROKER_USER_MAX 64        /* a logged-in user: handover_message's */

enum gateway_broker_request_type {
	GATEWAY_BROKER_LOGIN = 1,
	GATEWAY_BROKER_REDEEM = 2,
};

/* The fronts, as enum gateway_protocol. */
enum gateway_broker_protocol {
	GATEWAY_BROKER_VNC = 0,
	GATEWAY_BROKER_RDP = 1,
};

/* Every string is NUL-terminated within its field. */
struct gateway_broker_request {
	uint16_t type;  /* enum gateway_broker_request_type */
	uint8_t front;  /* enum gateway_broker_protocol */
	char host[GATEWAY_BROKER_HOST_MAX];
	char user[GATEWAY_BROKER_CREDENTIAL_MAX];     /* LOGIN */
	char password[GATEWAY_BROKER_CREDENTIAL_MAX]; /* LOGIN */
	char token[GATEWAY_BROKER_TOKEN_MAX];         /* REDEEM */
};

struct gateway_broker_reply {
	bool ok;
	uint16_t flags;                          /* enum handover_flags */
	char reason[GATEWAY_BROKER_REASON_MAX];  /* !ok: what the client is told */
	char user[GATEWAY_BROKER_USER_MAX];      /* REDEEM: the ticket's */
	char token[GATEWAY_BROKER_TOKEN_MAX];    /* LOGIN at RDP */
	char cookie[GATEWAY_BROKER_COOKIE_MAX];  /* LOGIN at RDP, REDEEM */
};

#define GATEWAY_BROKER_REQUEST_SIZE (8 + 1 + GATEWAY_BROKER_HOST_MAX + \
	2 * GATEWAY_BROKER_CREDENTIAL_MAX + GATEWAY_BROKER_TOKEN_MAX)
#define GATEWAY_BROKER_REPLY_SIZE (8 + 1 + 2 + GATEWAY_BROKER_REASON_MAX + \
	GATEWAY_BROKER_USER_MAX + GATEWAY_BROKER_TOKEN_MAX + GATEWAY_BROKER_COOKIE_MAX)

/*
 * Into out, GATEWAY_BROKER_REQUEST_SIZE bytes. False when a string of
 * request does not fit its field (nothing is cut short).
 */
bool gateway_broker_request_encode(const struct gateway_broker_request *request,
	uint8_t out[GATEWAY_BROKER_REQUEST_SIZE]);
/*
 * From size bytes: false unless they are one whole request of a known
 * type and front with every string terminated in its field. *request is
 * zeroed first.
 */
bool gateway_broker_request_decode(const uint8_t *data, size_t size,
	struct gateway_broker_request *request);

bool gateway_broker_reply_encode(const struct gateway_broker_reply *reply,
	uint8_t out[GATEWAY_BROKER_REPLY_SIZE]);
bool gateway_broker_reply_decode(const uint8_t *data, size_t size,
	struct gateway_broker_reply *reply);

#endif
