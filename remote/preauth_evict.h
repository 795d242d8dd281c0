/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_PREAUTH_EVICT_H
#define ORIEL_REMOTE_PREAUTH_EVICT_H

/*
 * Which guest gives way when a cap is full (preauth_limits.h), shared by
 * the gateway's fronts and a session's own listeners. A connection that
 * is moving beats one that has stalled: a guest whose handshake advanced
 * (a whole message of it) in the last PREAUTH_MOVING_MS never gives way
 * while one has stalled, so a flood of fresh stalled handshakes cannot
 * push out a login under way. Pure.
 */

#include <stdbool.h>
#include <stdint.h>

/* A guest whose handshake advanced this recently is moving. */
#define PREAUTH_MOVING_MS 1000

/* One guest, as the choice sees it; times in ms on one monotonic clock. */
struct preauth_guest {
	const char *host;
	bool may_give_way; /* false: its account is being checked, or it is gone */
	int stage;         /* how far its login got: higher is further */
	int64_t started_ms;
	int64_t progress_ms; /* its handshake's last whole message (0: none yet) */
	int64_t heard_ms;    /* its last bytes (or when it connected) */
	bool partial;        /* it sent half a message, and waits for the rest */
};

/* No step for PREAUTH_MOVING_MS (connecting is its first), or half a message it does not finish. */
bool preauth_guest_stalled(const struct preauth_guest *guest, int64_t now);

/*
 * The index of the guest that gives way to a newcomer, from host or,
 * when host is NULL, from the addresses with the most guests that may
 * give way; -1 when none may.
 *
 * The stalled go first. Of them, the one whose login got least far, then
 * the one silent the longest; when none has stalled, the one least far,
 * then the one that has waited the longest for its next step. Among
 * addresses with as many guests each, all of them are candidates, so
 * that many addresses with one stalled connection each push out their
 * own, never a login from another address that is moving.
 */
int preauth_choose(const struct preauth_guest *guests, int n, const char *host, int64_t now);

/*
 * Half a TLS handshake record waits unread on fd: a handshake that has
 * stalled, seen before its reader got to it (under a flood, half
 * ClientHellos would otherwise look fresh). A client writes each flight
 * whole, so a login's waits whole or not at all. Peeks; reads nothing.
 */
bool preauth_half_tls_record_waits(int fd);

/*
 * The guests of one choice, gathered from the caller's own list, each
 * standing for one of its connections (its owner), so that the choice
 * names a connection:
 *
 *	struct preauth_list list;
 *	if (!preauth_list_init(&list, n_guests, monotonic_ms())) return NULL;
 *	for each guest: describe preauth_list_add(&list, guest), then peek;
 *	return preauth_list_choose(&list, host);
 */
struct preauth_list {
	struct preauth_guest *guests;
	void **owners;
	int n, max;
	int64_t now;
};

/* Room for max guests, seen at now; false without memory. */
bool preauth_list_init(struct preauth_list *list, int max, int64_t now);

/* The next guest, zeroed, for the caller to describe; NULL when the list is full. */
struct preauth_guest *preauth_list_add(struct preauth_list *list, void *owner);

/*
 * For a guest described, still in its TLS handshake: when it may give
 * way and does not look stalled, half a TLS record unread on fd makes it
 * partial. Only a fresh one needs the look.
 */
void preauth_list_peek(struct preauth_list *list, struct preauth_guest *guest, int fd);

/* The owner of the guest that gives way (preauth_choose), or NULL; frees the list. */
void *preauth_list_choose(struct preauth_list *list, const char *host);

#endif
