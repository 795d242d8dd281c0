/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_RDP_TICKETS_H
#define ORIEL_GATEWAY_RDP_TICKETS_H

/*
 * The RDP front's tickets: a client that logged in is redirected back to
 * the gateway (MS-RDPBCGR Server Redirection) with a routing token and a
 * password cookie, both fresh random hex. Its reconnection brings the
 * token in its X.224 Connection Request; the ticket it names is taken
 * (once), and goes with the user's session's hand-over socket, where the
 * session holds the client to the cookie. A ticket lasts
 * GATEWAY_TICKET_MS. Thread-safe; no FreeRDP.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define GATEWAY_TICKET_MS 30000
#define GATEWAY_TICKETS_MAX 64
#define GATEWAY_TOKEN_LEN 32  /* hex digits: 128 bits */
#define GATEWAY_COOKIE_LEN 64 /* hex digits: 256 bits */

struct gateway_ticket {
	char token[GATEWAY_TOKEN_LEN + 1];
	char cookie[GATEWAY_COOKIE_LEN + 1];
	char user[64];
	int sock;          /* the session's hand-over socket, owned; -1: a free slot */
	uint16_t flags;    /* enum handover_flags */
	int64_t expires_ms;
};

struct gateway_tickets {
	pthread_mutex_t lock;
	struct gateway_ticket items[GATEWAY_TICKETS_MAX];
};

void gateway_tickets_init(struct gateway_tickets *tickets);
/* Closes the sockets of the tickets left. */
void gateway_tickets_finish(struct gateway_tickets *tickets);

/*
 * A new ticket for user, taking sock: fills token and cookie. When all
 * are in use, the one that expires first goes. False (sock closed) when
 * there are no random bytes or user is too long.
 */
bool gateway_tickets_issue(struct gateway_tickets *tickets, const char *user, int sock,
	uint16_t flags, int64_t now_ms, char token[GATEWAY_TOKEN_LEN + 1],
	char cookie[GATEWAY_COOKIE_LEN + 1]);

/*
 * Takes the unexpired ticket of token into *out (its socket is then the
 * caller's); false when there is none. Expired tickets go meanwhile.
 */
bool gateway_tickets_redeem(struct gateway_tickets *tickets, const char *token,
	int64_t now_ms, struct gateway_ticket *out);

#endif
