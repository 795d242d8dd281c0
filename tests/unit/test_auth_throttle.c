/* SPDX-License-Identifier: MIT */
/* Unit tests for the login throttle (capture/remote/auth_throttle.c). */

#include <stdio.h>
#include "capture/remote/auth_throttle.h"
#include "tests/unit/expect.h"

static struct auth_throttle throttle;

int main(void) {
	int64_t t = 1000000;
	for (int i = 0; i < AUTH_THROTTLE_FREE; i++) {
		EXPECT(auth_throttle_allowed(&throttle, "10.0.0.1", t), "free try %d", i);
		auth_throttle_failed(&throttle, "10.0.0.1", t);
	}
	EXPECT(!auth_throttle_allowed(&throttle, "10.0.0.1", t + 999), "waits a second");
	EXPECT(auth_throttle_allowed(&throttle, "10.0.0.1", t + 1000), "after a second");
	EXPECT(auth_throttle_allowed(&throttle, "10.0.0.2", t), "another address is free");
	auth_throttle_failed(&throttle, "10.0.0.1", t);
	EXPECT(!auth_throttle_allowed(&throttle, "10.0.0.1", t + 1999), "then two seconds");
	for (int i = 0; i < 20; i++) {
		auth_throttle_failed(&throttle, "10.0.0.1", t);
	}
	EXPECT(!auth_throttle_allowed(&throttle, "10.0.0.1", t + 59999), "at most a minute");
	EXPECT(auth_throttle_allowed(&throttle, "10.0.0.1", t + 60000), "a minute");
	auth_throttle_succeeded(&throttle, "10.0.0.1");
	EXPECT(auth_throttle_allowed(&throttle, "10.0.0.1", t), "a success forgets");

	/* Many addresses: the oldest are forgotten, the table stays bounded. */
	for (int i = 0; i < AUTH_THROTTLE_HOSTS + 10; i++) {
		char host[32];
		snprintf(host, sizeof(host), "10.1.%d.%d", i / 256, i % 256);
		for (int j = 0; j < AUTH_THROTTLE_FREE; j++) {
			auth_throttle_failed(&throttle, host, t);
		}
	}
	EXPECT(throttle.n_entries == AUTH_THROTTLE_HOSTS, "%d entries", throttle.n_entries);
	EXPECT(!auth_throttle_allowed(&throttle, "10.1.1.9", t), "the newest is remembered");
	EXPECT(auth_throttle_allowed(&throttle, "10.1.0.0", t), "the oldest is forgotten");
	return failures != 0;
}
