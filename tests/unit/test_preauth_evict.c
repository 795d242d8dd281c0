/* SPDX-License-Identifier: MIT */
/* Unit tests for who gives way when the guests' caps are full (remote/preauth_evict.c). */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
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

/* A caller's connection, as a front or a server lists its guests. */
struct connection {
	const char *host;
	int stage;
	int64_t started_ms;
	bool checking;
	int fds[2]; /* fds[0] is the connection's socket; the client writes on fds[1] */
};

/* What a caller does: gathers its connections, peeks at the fresh ones, and lets the list choose. */
static struct connection *give_way(struct connection *conns, int n, int max,
		const char *host, int64_t now) {
	struct preauth_list list;
	if (!preauth_list_init(&list, max, now)) {
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		struct preauth_guest *s = preauth_list_add(&list, &conns[i]);
		if (!s) {
			break;
		}
		*s = guest(conns[i].host, conns[i].stage, conns[i].started_ms, 0);
		s->may_give_way = !conns[i].checking;
		preauth_list_peek(&list, s, conns[i].fds[0]);
	}
	return preauth_list_choose(&list, host);
}

/* The list names the connection that gives way; a peek finds half a ClientHello. */
static void test_list(void) {
	int64_t now = 10000;
	struct connection conns[4] = {
		{ .host = "10.0.0.1", .started_ms = now - 100 },
		{ .host = "10.0.0.2", .started_ms = now - 300 },
		{ .host = "10.0.0.2", .started_ms = now - 200 },
		{ .host = "10.0.0.3", .started_ms = now - 50 },
	};
	for (int i = 0; i < 4; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, conns[i].fds) < 0) {
			EXPECT(false, "socketpair");
			return;
		}
	}
	/* A TLS handshake record header that promises 512 bytes: half of one. */
	const uint8_t half[] = { 0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00 };
	/* A whole record of 2 bytes. */
	const uint8_t whole[] = { 0x16, 0x03, 0x01, 0x00, 0x02, 0x01, 0x00 };
	EXPECT(write(conns[1].fds[1], whole, sizeof(whole)) == sizeof(whole), "written");

	EXPECT(give_way(conns, 4, 4, NULL, now) == &conns[1],
		"all fresh: of the busiest address, the one waiting longest for its step");
	EXPECT(give_way(conns, 4, 4, "10.0.0.3", now) == &conns[3], "of one address, its own");

	EXPECT(write(conns[3].fds[1], half, sizeof(half)) == sizeof(half), "written");
	EXPECT(give_way(conns, 4, 4, NULL, now) == &conns[3],
		"half a ClientHello unread: stalled, and it goes first, from a quiet address");
	conns[3].checking = true;
	EXPECT(give_way(conns, 4, 4, NULL, now) == &conns[1],
		"not one whose account is being checked, half a record or not");
	EXPECT(give_way(conns, 4, 4, "10.0.0.3", now) == NULL, "none of that address may");

	/* A list sized for two takes the first two only. */
	conns[3].checking = false;
	EXPECT(give_way(conns, 4, 2, "10.0.0.3", now) == NULL, "the third is not on the list");
	EXPECT(give_way(conns, 4, 2, NULL, now) == &conns[1], "of the first two");
	EXPECT(give_way(conns, 0, 0, NULL, now) == NULL, "no guests, none gives way");
	for (int i = 0; i < 4; i++) {
		close(conns[i].fds[0]);
		close(conns[i].fds[1]);
	}
}

int main(void) {
	test_list();
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
