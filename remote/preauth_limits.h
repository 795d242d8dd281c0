/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_PREAUTH_LIMITS_H
#define ORIEL_REMOTE_PREAUTH_LIMITS_H

/*
 * Connections that have not finished their handshake and authentication
 * are guests: they never take a viewer's place, and they have caps of
 * their own, per source address and in total. A new guest is always let
 * in; when a cap is full, an older guest gives way: one of the same
 * address, or, when all guests together fill the total, one of the
 * addresses with the most, a stalled one first (preauth_evict.h). So
 * silent connections, from one address or many, can only push each other
 * out, never a viewer that is about to finish its handshake. Pure.
 */

struct preauth_limits {
	int per_address; /* default 4 */
	int total;       /* default 64 */
};

enum preauth_decision {
	PREAUTH_ADMIT,
	PREAUTH_EVICT_SAME_ADDRESS, /* then admit */
	PREAUTH_EVICT_BUSIEST,      /* then admit */
};

/* n_total guests now, n_same of them from the new guest's address. */
enum preauth_decision preauth_decide(const struct preauth_limits *limits, int n_total,
	int n_same);

#endif
