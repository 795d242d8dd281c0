/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "remote/auth_throttle.h"

#define FIRST_SLOTS 16

void auth_throttle_key(const char *host, uint8_t key[16]) {
	char address[64];
	snprintf(address, sizeof(address), "%s", host);
	char *scope = strchr(address, '%');
	if (scope) {
		*scope = '\0';
	}
	memset(key, 0, 16);
	if (inet_pton(AF_INET, address, key + 12) == 1) {
		key[10] = key[11] = 0xff; /* ::ffff:a.b.c.d, as v4-mapped IPv6 comes */
		return;
	}
	if (inet_pton(AF_INET6, address, key) == 1) {
		static const uint8_t v4_mapped[12] = { [10] = 0xff, [11] = 0xff };
		if (memcmp(key, v4_mapped, sizeof(v4_mapped)) != 0) {
			memset(key + 8, 0, 8); /* its /64 */
		}
		return;
	}
	/* Not an address: a hash of the string, in 0100::/64 (RFC 6666, discard-only). */
	uint64_t h = 0xcbf29ce484222325ull;
	for (const char *c = host; *c; c++) {
		h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
	}
	key[0] = 0x01;
	memcpy(key + 8, &h, 8);
	key[15] |= 1; /* never the /64's own key */
}

static uint32_t slot_of(const struct auth_throttle *throttle, const uint8_t key[16]) {
	uint64_t h = throttle->seed ^ 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 16; i++) {
		h = (h ^ key[i]) * 0x100000001b3ull;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (uint32_t)h & (throttle->n_slots - 1);
}

static struct auth_throttle_entry *find(const struct auth_throttle *throttle,
		const uint8_t key[16]) {
	if (!throttle->slots) {
		return NULL;
	}
	uint32_t mask = throttle->n_slots - 1;
	for (uint32_t i = slot_of(throttle, key); throttle->slots[i].count; i = (i + 1) & mask) {
		if (memcmp(throttle->slots[i].key, key, 16) == 0) {
			return &throttle->slots[i];
		}
	}
	return NULL;
}

/* There is a free slot: the table is never more than half full. */
static struct auth_throttle_entry *insert(struct auth_throttle *throttle,
		const struct auth_throttle_entry *entry) {
	uint32_t mask = throttle->n_slots - 1;
	uint32_t i = slot_of(throttle, entry->key);
	while (throttle->slots[i].count) {
		i = (i + 1) & mask;
	}
	throttle->slots[i] = *entry;
	throttle->n_entries++;
	return &throttle->slots[i];
}

static int64_t wait_ms(int count) {
	if (count < AUTH_THROTTLE_FREE) {
		return 0;
	}
	int shift = count - AUTH_THROTTLE_FREE;
	return (shift >= 6 ? AUTH_THROTTLE_MAX_S : (1 << shift)) * (int64_t)1000;
}

static bool throttled(const struct auth_throttle_entry *entry, int64_t now_ms) {
	return entry->count > 0 && now_ms - entry->last_ms < wait_ms(entry->count);
}

/* Into n_slots slots (0: as few as fit), keeping the entries that keep(entry) says. */
static bool rebuild(struct auth_throttle *throttle, uint32_t n_slots,
		bool (*keep)(const struct auth_throttle_entry *entry, int64_t now_ms),
		int64_t now_ms) {
	struct auth_throttle_entry *old = throttle->slots;
	uint32_t n_old = throttle->n_slots;
	if (n_slots == 0) {
		uint32_t n_kept = 0;
		for (uint32_t i = 0; i < n_old; i++) {
			n_kept += old[i].count && keep(&old[i], now_ms);
		}
		for (n_slots = FIRST_SLOTS; n_slots < (n_kept + 1) * 2; n_slots *= 2) {
		}
	}
	struct auth_throttle_entry *slots = calloc(n_slots, sizeof(*slots));
	if (!slots) {
		return false;
	}
	if (!old && throttle->seed == 0 &&
			getrandom(&throttle->seed, sizeof(throttle->seed), GRND_NONBLOCK) !=
				sizeof(throttle->seed)) {
		/* A hash that addresses cannot be chosen to collide in, when it can. */
		throttle->seed = (uint64_t)(uintptr_t)slots ^ (uint64_t)now_ms;
	}
	throttle->slots = slots;
	throttle->n_slots = n_slots;
	throttle->n_entries = 0;
	for (uint32_t i = 0; i < n_old; i++) {
		if (old[i].count && keep(&old[i], now_ms)) {
			insert(throttle, &old[i]);
		}
	}
	free(old);
	return true;
}

static bool keep_all(const struct auth_throttle_entry *entry, int64_t now_ms) {
	return true;
}

/* A slot for a new address, or NULL when every one is taken by a throttled one. */
static struct auth_throttle_entry *new_entry(struct auth_throttle *throttle,
		const uint8_t key[16], int64_t now_ms) {
	if (throttle->n_entries >= AUTH_THROTTLE_HOSTS) {
		if (throttle->swept && now_ms - throttle->last_sweep_ms < AUTH_THROTTLE_SWEEP_MS) {
			return NULL;
		}
		throttle->swept = true;
		throttle->last_sweep_ms = now_ms;
		/* Only the addresses that are being throttled stay. */
		if (!rebuild(throttle, 0, throttled, now_ms) ||
				throttle->n_entries >= AUTH_THROTTLE_HOSTS) {
			return NULL;
		}
	}
	if (!throttle->slots || (throttle->n_entries + 1) * 2 > throttle->n_slots) {
		uint32_t n_slots = throttle->slots ? throttle->n_slots * 2 : FIRST_SLOTS;
		if (!rebuild(throttle, n_slots, keep_all, now_ms)) {
			return NULL;
		}
	}
	struct auth_throttle_entry entry = {0};
	memcpy(entry.key, key, sizeof(entry.key));
	return insert(throttle, &entry);
}

bool auth_throttle_allowed(const struct auth_throttle *throttle, const char *host,
		int64_t now_ms) {
	uint8_t key[16];
	auth_throttle_key(host, key);
	const struct auth_throttle_entry *entry = find(throttle, key);
	if (!entry && throttle->n_entries >= AUTH_THROTTLE_HOSTS) {
		entry = &throttle->newcomers;
	}
	return !entry || !throttled(entry, now_ms);
}

int auth_throttle_failed(struct auth_throttle *throttle, const char *host, int64_t now_ms) {
	uint8_t key[16];
	auth_throttle_key(host, key);
	struct auth_throttle_entry *entry = find(throttle, key);
	if (!entry) {
		entry = new_entry(throttle, key, now_ms);
	}
	if (!entry) {
		entry = &throttle->newcomers;
	}
	entry->count++;
	entry->last_ms = now_ms;
	return entry->count;
}

void auth_throttle_succeeded(struct auth_throttle *throttle, const char *host) {
	uint8_t key[16];
	auth_throttle_key(host, key);
	struct auth_throttle_entry *entry = find(throttle, key);
	if (!entry) {
		return;
	}
	/* Out, and the rest of its run back in: linear probing has no holes. */
	uint32_t mask = throttle->n_slots - 1;
	uint32_t i = (uint32_t)(entry - throttle->slots);
	throttle->slots[i].count = 0;
	throttle->n_entries--;
	for (i = (i + 1) & mask; throttle->slots[i].count; i = (i + 1) & mask) {
		struct auth_throttle_entry moved = throttle->slots[i];
		throttle->slots[i].count = 0;
		throttle->n_entries--;
		insert(throttle, &moved);
	}
}

void auth_throttle_finish(struct auth_throttle *throttle) {
	free(throttle->slots);
	*throttle = (struct auth_throttle){0};
}
