/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>
#include "gateway/gateway_rdp_tickets.h"

static void clear(struct gateway_ticket *ticket) {
	if (ticket->sock >= 0) {
		close(ticket->sock);
	}
	/* Not memset alone: the compiler may not drop what is read again. */
	explicit_bzero(ticket, sizeof(*ticket));
	ticket->sock = -1;
}

void gateway_tickets_init(struct gateway_tickets *tickets) {
	pthread_mutex_init(&tickets->lock, NULL);
	for (int i = 0; i < GATEWAY_TICKETS_MAX; i++) {
		explicit_bzero(&tickets->items[i], sizeof(tickets->items[i]));
		tickets->items[i].sock = -1;
	}
}

void gateway_tickets_finish(struct gateway_tickets *tickets) {
	for (int i = 0; i < GATEWAY_TICKETS_MAX; i++) {
		clear(&tickets->items[i]);
	}
	pthread_mutex_destroy(&tickets->lock);
}

static bool random_hex(char *out, size_t digits) {
	uint8_t bytes[GATEWAY_COOKIE_LEN / 2];
	size_t n = digits / 2;
	if (n > sizeof(bytes) || getrandom(bytes, n, 0) != (ssize_t)n) {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(out + 2 * i, 3, "%02x", bytes[i]);
	}
	explicit_bzero(bytes, sizeof(bytes));
	return true;
}

/* Under the lock. */
static void sweep(struct gateway_tickets *tickets, int64_t now_ms) {
	for (int i = 0; i < GATEWAY_TICKETS_MAX; i++) {
		struct gateway_ticket *t = &tickets->items[i];
		if (t->sock >= 0 && t->expires_ms <= now_ms) {
			clear(t);
		}
	}
}

bool gateway_tickets_issue(struct gateway_tickets *tickets, const char *user, int sock,
		uint16_t flags, int64_t now_ms, char token[GATEWAY_TOKEN_LEN + 1],
		char cookie[GATEWAY_COOKIE_LEN + 1]) {
	if (strlen(user) >= sizeof(((struct gateway_ticket *)0)->user) ||
			!random_hex(token, GATEWAY_TOKEN_LEN) ||
			!random_hex(cookie, GATEWAY_COOKIE_LEN)) {
		close(sock);
		return false;
	}
	pthread_mutex_lock(&tickets->lock);
	sweep(tickets, now_ms);
	/* A free slot, else the ticket that expires first gives way. */
	int pick = 0;
	for (int i = 0; i < GATEWAY_TICKETS_MAX; i++) {
		if (tickets->items[i].sock < 0) {
			pick = i;
			break;
		}
		if (tickets->items[i].expires_ms < tickets->items[pick].expires_ms) {
			pick = i;
		}
	}
	struct gateway_ticket *slot = &tickets->items[pick];
	clear(slot);
	memcpy(slot->token, token, GATEWAY_TOKEN_LEN + 1);
	memcpy(slot->cookie, cookie, GATEWAY_COOKIE_LEN + 1);
	snprintf(slot->user, sizeof(slot->user), "%s", user);
	slot->sock = sock;
	slot->flags = flags;
	slot->expires_ms = now_ms + GATEWAY_TICKET_MS;
	pthread_mutex_unlock(&tickets->lock);
	return true;
}

/* Compares every byte, whatever differs first: how long it takes tells nothing. */
static bool same_token(const char *a, const char *b) {
	uint8_t diff = 0;
	for (size_t i = 0; i < GATEWAY_TOKEN_LEN + 1; i++) {
		diff |= (uint8_t)(a[i] ^ b[i]);
	}
	return diff == 0;
}

bool gateway_tickets_redeem(struct gateway_tickets *tickets, const char *token,
		int64_t now_ms, struct gateway_ticket *out) {
	char wanted[GATEWAY_TOKEN_LEN + 1] = "";
	if (strlen(token) != GATEWAY_TOKEN_LEN) {
		return false;
	}
	memcpy(wanted, token, GATEWAY_TOKEN_LEN);
	bool found = false;
	pthread_mutex_lock(&tickets->lock);
	sweep(tickets, now_ms);
	for (int i = 0; i < GATEWAY_TICKETS_MAX; i++) {
		struct gateway_ticket *t = &tickets->items[i];
		if (t->sock >= 0 && same_token(t->token, wanted) && !found) {
			*out = *t;
			t->sock = -1; /* now the caller's */
			clear(t);
			found = true;
		}
	}
	pthread_mutex_unlock(&tickets->lock);
	return found;
}
