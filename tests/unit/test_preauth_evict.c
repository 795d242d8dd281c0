/* SPDX-License-Identifier: MIT */
/* Unit tests for who gives way when the guests' caps are full (remote/preauth_evict.c). */

#include "remote/preauth_evict.h"
#include "tests/unit/expect.h"

/* A guest from host that connected at started and last stepped at progress (0: never). */
static struct preauth_guest guest(const char *host, int stage, int64_t started,
		int64_t progress) {
	return (struct preauth_guest){
		.host = host, .may_give_way = true, .stage = stage, .started_ms = started,
		.progress_ms = progress, .heard_ms = progress > 0 ? progress : started,
	};
}

int main(void) {
	int64_t now = 10000;
	/* A login under way (stepped 200 ms ago), among stalled strangers. */
	struct preauth_guest g[4] = {
		guest("10.0.0.1", 2, now - 3000, now - 200),
		guest("10.0.0.2", 0, now - 2000, 0),
		guest("10.0.0.3", 0, now - 1500, 0),
		guest("10.0.0.4", 1, now - 100, 0),
	};
	EXPECT(!preauth_guest_stalled(&g[0], now), "a step 200 ms ago: moving");
	EXPECT(preauth_guest_stalled(&g[1], now), "no step for 2 s: stalled");
	EXPECT(!preauth_guest_stalled(&g[3], now), "a newcomer is moving");
	EXPECT(preauth_choose(g, 4, NULL, now) == 1, "the stalled one silent the longest");

	/* A fresh half message has stalled, however new; the login is never chosen before it. */
	g[1].may_give_way = g[2].may_give_way = false;
	g[3].partial = true;
	EXPECT(preauth_choose(g, 4, NULL, now) == 3, "half a message goes before a login");
	g[3].partial = false;
	g[3].stage = 5;
	EXPECT(preauth_choose(g, 4, NULL, now) == 0,
		"when none has stalled, the one least far goes");
	g[3].stage = 1;
	EXPECT(preauth_choose(g, 4, NULL, now) == 3, "the one least far, when none has stalled");

	/* A moving login from an address of its own outlives many one-connection stalled addresses. */
	struct preauth_guest many[6] = {
		guest("10.0.0.1", 0, now - 50, now - 20),
		guest("10.0.1.1", 0, now - 10, 0),
		guest("10.0.1.2", 0, now - 10, 0),
		guest("10.0.1.3", 0, now - 10, 0),
		guest("10.0.1.4", 0, now - 10, 0),
		guest("10.0.1.5", 0, now - 10, 0),
	};
	for (int i = 1; i < 6; i++) {
		many[i].partial = true;
	}
	for (int round = 0; round < 5; round++) {
		int victim = preauth_choose(many, 6, NULL, now);
		EXPECT(victim > 0, "round %d: a stalled one gives way, not the login (%d)", round,
			victim);
		if (victim >= 0) {
			many[victim].may_give_way = false;
		}
	}
	EXPECT(preauth_choose(many, 6, NULL, now) == 0, "the login last, when all else is gone");

	/* From one address only: its own. */
	struct preauth_guest same[3] = {
		guest("10.0.0.1", 0, now - 5000, 0),
		guest("10.0.0.2", 0, now - 4000, 0),
		guest("10.0.0.2", 0, now - 300, 0),
	};
	EXPECT(preauth_choose(same, 3, "10.0.0.2", now) == 1, "the address's stalled one");
	same[1].may_give_way = false;
	EXPECT(preauth_choose(same, 3, "10.0.0.2", now) == 2, "else the address's moving one");
	same[2].may_give_way = false;
	EXPECT(preauth_choose(same, 3, "10.0.0.2", now) == -1, "none to give way");
	EXPECT(preauth_choose(same, 0, NULL, now) == -1, "no guests");
	return failures != 0;
}
