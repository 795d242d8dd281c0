/* SPDX-License-Identifier: MIT */
/* Unit tests for the login throttle (remote/auth_throttle.c). */

#include <stdio.h>
#include <string.h>
#include "remote/auth_throttle.h"
#include "tests/unit/expect.h"

static void fail_n(struct auth_throttle *throttle, const char *host, int n, int64_t t) {
	for (int i = 0; i < n; i++) {
		auth_throttle_failed(throttle, host, t);
	}
}

static void v4_host(char *out, size_t size, uint32_t i) {
	snprintf(out, size, "10.%u.%u.%u", (i >> 16) & 0xff, (i >> 8) & 0xff, i & 0xff);
}

static void backoff(void) {
	struct auth_throttle throttle = {0};
	int64_t t = 1000000;
	EXPECT(throttle.slots == NULL, "nothing allocated while nobody failed");
	for (int i = 0; i < AUTH_THROTTLE_FREE; i++) {
		EXPECT(auth_throttle_allowed(&throttle, "10.0.0.1", t), "free try %d", i);
		auth_throttle_failed(&throttle, "10.0.0.1", t);
	}
	EXPECT(!auth_throttle_allowed(&throttle, "10.0.0.1", t + 999), "waits a second");
	EXPECT(auth_throttle_allowed(&throttle, "10.0.0.1", t + 1000), "after a second");
	EXPECT(auth_throttle_allowed(&throttle, "10.0.0.2", t), "another address is free");
	auth_throttle_failed(&throttle, "10.0.0.1", t);
	EXPECT(!auth_throttle_allowed(&throttle, "10.0.0.1", t + 1999), "then two seconds");
	fail_n(&throttle, "10.0.0.1", 20, t);
	EXPECT(!auth_throttle_allowed(&throttle, "10.0.0.1", t + 59999), "at most a minute");
	EXPECT(auth_throttle_allowed(&throttle, "10.0.0.1", t + 60000), "a minute");
	auth_throttle_succeeded(&throttle, "10.0.0.1");
	EXPECT(auth_throttle_allowed(&throttle, "10.0.0.1", t), "a success forgets");
	EXPECT(throttle.n_entries == 0, "%u entries after the success", throttle.n_entries);
	auth_throttle_finish(&throttle);
	EXPECT(throttle.slots == NULL && throttle.n_entries == 0, "finish empties it");
}

static void addresses(void) {
	struct auth_throttle throttle = {0};
	int64_t t = 1000000;
	/* One /64 is one address. */
	fail_n(&throttle, "2001:db8:1:2::1", AUTH_THROTTLE_FREE, t);
	EXPECT(!auth_throttle_allowed(&throttle, "2001:db8:1:2:ffff:1:2:3", t),
		"another address of the same /64 waits");
	EXPECT(!auth_throttle_allowed(&throttle, "2001:db8:1:2::9%eth0", t),
		"with a scope too");
	EXPECT(auth_throttle_allowed(&throttle, "2001:db8:1:3::1", t), "the next /64 is free");
	/* v4-mapped IPv6 is the IPv4 address, and only it. */
	fail_n(&throttle, "192.0.2.7", AUTH_THROTTLE_FREE, t);
	EXPECT(!auth_throttle_allowed(&throttle, "::ffff:192.0.2.7", t), "v4-mapped is v4");
	EXPECT(auth_throttle_allowed(&throttle, "::ffff:192.0.2.8", t),
		"not the whole /64 of v4-mapped space");
	EXPECT(auth_throttle_allowed(&throttle, "192.0.2.8", t), "the next IPv4 address");
	/* Names that are no address have keys of their own. */
	fail_n(&throttle, "unix", AUTH_THROTTLE_FREE, t);
	EXPECT(!auth_throttle_allowed(&throttle, "unix", t), "unix waits");
	EXPECT(auth_throttle_allowed(&throttle, "?", t), "? does not");
	uint8_t a[16], b[16];
	auth_throttle_key("unix", a);
	auth_throttle_key("100::", b);
	EXPECT(memcmp(a, b, 16) != 0, "a name's key is no /64's");
	auth_throttle_finish(&throttle);
}

static void growth(void) {
	struct auth_throttle throttle = {0};
	int64_t t = 1000000;
	auth_throttle_failed(&throttle, "192.0.2.1", t);
	EXPECT(throttle.n_slots == 16, "a small table first: %u slots", throttle.n_slots);
	char host[32];
	for (uint32_t i = 0; i < 1000; i++) {
		v4_host(host, sizeof(host), i);
		auth_throttle_failed(&throttle, host, t);
	}
	EXPECT(throttle.n_entries == 1001, "%u entries", throttle.n_entries);
	EXPECT(throttle.n_slots == 2048, "grown on demand: %u slots", throttle.n_slots);
	/* Everything is still there after growing and after removals from runs. */
	for (uint32_t i = 0; i < 1000; i += 2) {
		v4_host(host, sizeof(host), i);
		auth_throttle_succeeded(&throttle, host);
	}
	int wrong = 0;
	for (uint32_t i = 0; i < 1000; i++) {
		v4_host(host, sizeof(host), i);
		wrong += auth_throttle_failed(&throttle, host, t) != (i % 2 ? 2 : 1);
	}
	EXPECT(wrong == 0, "%d addresses lost their count", wrong);
	auth_throttle_finish(&throttle);
}

static void full(void) {
	static struct auth_throttle throttle;
	int64_t t = 1000000;
	char host[32];
	/* Half of the table is being throttled, half failed once. */
	for (uint32_t i = 0; i < AUTH_THROTTLE_HOSTS; i++) {
		v4_host(host, sizeof(host), i);
		fail_n(&throttle, host, i % 2 ? 1 : AUTH_THROTTLE_FREE, t);
	}
	EXPECT(throttle.n_entries == AUTH_THROTTLE_HOSTS, "%u entries", throttle.n_entries);
	EXPECT(throttle.n_slots == 2 * AUTH_THROTTLE_HOSTS, "%u slots", throttle.n_slots);
	/* Rotating sources: thousands of new ones, none evicts a throttled one. */
	for (uint32_t i = 0; i < 10000; i++) {
		snprintf(host, sizeof(host), "2001:db8:%x::1", i);
		auth_throttle_failed(&throttle, host, t + i);
	}
	EXPECT(throttle.n_entries <= AUTH_THROTTLE_HOSTS, "capped: %u", throttle.n_entries);
	int freed = 0;
	for (uint32_t i = 0; i < AUTH_THROTTLE_HOSTS; i += 2) {
		v4_host(host, sizeof(host), i);
		freed += auth_throttle_allowed(&throttle, host, t + 500);
	}
	EXPECT(freed == 0, "%d throttled addresses went free", freed);
	auth_throttle_finish(&throttle);

	/* All of it throttled: newcomers share one entry, and wait together. */
	for (uint32_t i = 0; i < AUTH_THROTTLE_HOSTS; i++) {
		v4_host(host, sizeof(host), i);
		fail_n(&throttle, host, AUTH_THROTTLE_FREE + 6, t);
	}
	EXPECT(auth_throttle_allowed(&throttle, "192.0.2.1", t), "a newcomer may try");
	fail_n(&throttle, "192.0.2.1", 2, t);
	fail_n(&throttle, "192.0.2.2", 1, t);
	EXPECT(throttle.newcomers.count == 3, "newcomers share: %d", throttle.newcomers.count);
	EXPECT(!auth_throttle_allowed(&throttle, "192.0.2.3", t + 10),
		"then newcomers wait: it fails closed");
	v4_host(host, sizeof(host), 5);
	EXPECT(!auth_throttle_allowed(&throttle, host, t + 59999), "the throttled still wait");
	/* Once their wait is over, they make room for newcomers of their own. */
	int64_t later = t + 60000;
	EXPECT(auth_throttle_failed(&throttle, "192.0.2.9", later) == 1,
		"a newcomer gets its own entry again");
	EXPECT(throttle.n_entries == 1, "%u entries left", throttle.n_entries);
	auth_throttle_finish(&throttle);
}

int main(void) {
	backoff();
	addresses();
	growth();
	full();
	return failures != 0;
}
