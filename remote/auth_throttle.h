/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_AUTH_THROTTLE_H
#define ORIEL_REMOTE_AUTH_THROTTLE_H

/*
 * Failed logins, counted per source address: after a few in a row, the
 * address waits 1 s, then 2, 4... up to a minute before it may try
 * again. A success forgets the address. Pure: times are given.
 *
 * An address is its IPv4 address (also when it comes v4-mapped), or its
 * IPv6 /64: whoever holds a /64 holds all of it. Any other string (a
 * Unix socket's "unix") is a key of its own.
 *
 * The table is a hash table that starts empty (nothing allocated until a
 * failure) and grows up to AUTH_THROTTLE_HOSTS addresses. When it is
 * full, addresses that are not being throttled make room; rotating
 * sources can never push out one that is. When every address in it is
 * being throttled, the newcomers share one more entry, throttled like
 * any other: new addresses wait together rather than the throttled ones
 * going free.
 */

#include <stdbool.h>
#include <stdint.h>

#define AUTH_THROTTLE_FREE 3
#define AUTH_THROTTLE_MAX_S 60
#define AUTH_THROTTLE_HOSTS 65536
/* A full table looks for room at most this often. */
#define AUTH_THROTTLE_SWEEP_MS 1000

struct auth_throttle_entry {
	uint8_t key[16];
	int32_t count; /* 0: a free slot */
	int64_t last_ms;
};

/* Zeroed: empty. */
struct auth_throttle {
	struct auth_throttle_entry *slots; /* NULL until the first failure */
	uint32_t n_slots;  /* a power of two, at least twice n_entries */
	uint32_t n_entries;
	/* The newcomers' shared entry, while the table is full of throttled ones. */
	struct auth_throttle_entry newcomers;
	uint64_t seed;
	int64_t last_sweep_ms;
	bool swept; /* last_sweep_ms is set */
};

/* Frees the table; the throttle is empty (and usable) again. */
void auth_throttle_finish(struct auth_throttle *throttle);

/* False while host must wait. */
bool auth_throttle_allowed(const struct auth_throttle *throttle, const char *host,
	int64_t now_ms);
/* Counts a failure; returns how many in a row (of the newcomers', when they share). */
int auth_throttle_failed(struct auth_throttle *throttle, const char *host, int64_t now_ms);
void auth_throttle_succeeded(struct auth_throttle *throttle, const char *host);

/* The 16-byte key that host counts under (exposed for the tests). */
void auth_throttle_key(const char *host, uint8_t key[16]);

#endif
