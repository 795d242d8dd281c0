/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_REMOTE_AUTH_THROTTLE_H
#define ORIEL_CAPTURE_REMOTE_AUTH_THROTTLE_H

/*
 * Failed logins, counted per source address: after a few in a row, the
 * address waits 1 s, then 2, 4... up to a minute before it may try
 * again. A success forgets the address. Pure: times are given.
 */

#include <stdbool.h>
#include <stdint.h>

#define AUTH_THROTTLE_FREE 3
#define AUTH_THROTTLE_MAX_S 60
#define AUTH_THROTTLE_HOSTS 256

struct auth_throttle_entry {
	char host[64];
	int count;
	int64_t last_ms;
};

struct auth_throttle {
	/* Most recent failure first; the oldest is forgotten when full. */
	struct auth_throttle_entry entries[AUTH_THROTTLE_HOSTS];
	int n_entries;
};

/* False while host must wait. */
bool auth_throttle_allowed(const struct auth_throttle *throttle, const char *host,
	int64_t now_ms);
/* Counts a failure; returns how many in a row. */
int auth_throttle_failed(struct auth_throttle *throttle, const char *host, int64_t now_ms);
void auth_throttle_succeeded(struct auth_throttle *throttle, const char *host);

#endif
