/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include "capture/remote/auth_throttle.h"

static int find(const struct auth_throttle *throttle, const char *host) {
	for (int i = 0; i < throttle->n_entries; i++) {
		if (strcmp(throttle->entries[i].host, host) == 0) {
			return i;
		}
	}
	return -1;
}

static int64_t wait_ms(int count) {
	if (count < AUTH_THROTTLE_FREE) {
		return 0;
	}
	int shift = count - AUTH_THROTTLE_FREE;
	return (shift >= 6 ? AUTH_THROTTLE_MAX_S : (1 << shift)) * (int64_t)1000;
}

bool auth_throttle_allowed(const struct auth_throttle *throttle, const char *host,
		int64_t now_ms) {
	int i = find(throttle, host);
	if (i < 0) {
		return true;
	}
	const struct auth_throttle_entry *entry = &throttle->entries[i];
	return now_ms - entry->last_ms >= wait_ms(entry->count);
}

static void remove_at(struct auth_throttle *throttle, int i) {
	memmove(&throttle->entries[i], &throttle->entries[i + 1],
		(size_t)(throttle->n_entries - i - 1) * sizeof(throttle->entries[0]));
	throttle->n_entries--;
}

int auth_throttle_failed(struct auth_throttle *throttle, const char *host, int64_t now_ms) {
	struct auth_throttle_entry entry = {0};
	int i = find(throttle, host);
	if (i >= 0) {
		entry = throttle->entries[i];
		remove_at(throttle, i);
	} else {
		snprintf(entry.host, sizeof(entry.host), "%s", host);
		if (throttle->n_entries == AUTH_THROTTLE_HOSTS) {
			throttle->n_entries--; /* forget the oldest */
		}
	}
	entry.count++;
	entry.last_ms = now_ms;
	memmove(&throttle->entries[1], &throttle->entries[0],
		(size_t)throttle->n_entries * sizeof(throttle->entries[0]));
	throttle->entries[0] = entry;
	throttle->n_entries++;
	return entry.count;
}

void auth_throttle_succeeded(struct auth_throttle *throttle, const char *host) {
	int i = find(throttle, host);
	if (i >= 0) {
		remove_at(throttle, i);
	}
}
