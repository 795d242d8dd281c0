/* SPDX-License-Identifier: MIT */
/* Unit tests for when an X display's lock file is stale (common/x_display_lock.c). */

#include <stdio.h>
#include <string.h>
#include "common/x_display_lock.h"
#include "expect.h"

/* The processes of the tests: 100 is alice's (1000), 1 is root's, 200 hidden. */
static long owner_of(pid_t pid, void *data) {
	(void)data;
	switch (pid) {
	case 1:
		return 0;
	case 100:
		return 1000;
	case 200:
		return X_DISPLAY_LOCK_OWNER_UNKNOWN;
	default:
		return X_DISPLAY_LOCK_NO_PROCESS;
	}
}

static void expect_pid(const char *text, pid_t want) {
	pid_t got = x_display_lock_pid(text, strlen(text));
	EXPECT(got == want, "%s: pid %d, want %d", text, (int)got, (int)want);
}

static void expect_stale(const char *text, unsigned owner, long age_ms, bool want) {
	struct x_display_lock lock = {
		.text = text, .len = strlen(text), .owner = owner, .age_ms = age_ms,
	};
	bool got = x_display_lock_is_stale(&lock, owner_of, NULL);
	EXPECT(got == want, "\"%s\" of uid %u, %ld ms old: %s, want %s", text, owner,
		age_ms, got ? "stale" : "held", want ? "stale" : "held");
}

int main(void) {
	/* X servers' own format, and what is near it. */
	expect_pid("       100\n", 100);
	expect_pid("100\n", 100);
	expect_pid("100", 100);
	expect_pid("   4194304", 4194304);
	expect_pid("", -1);
	expect_pid("\n", -1);
	expect_pid("        \n", -1);
	expect_pid("0\n", -1);
	expect_pid("-5\n", -1);
	expect_pid("100\n\n", -1);
	expect_pid("100 \n", -1);
	expect_pid("100x", -1);
	expect_pid("x100", -1);
	expect_pid("not a pid", -1);
	expect_pid("99999999999999999999\n", -1);
	expect_pid("2147483648\n", -1);

	/* A live process of the lock's owner holds it, whoever that is. */
	expect_stale("       100\n", 1000, 60000, false);
	expect_stale("         1\n", 0, 60000, false);
	/* root's lock may name anyone's process (a server that changed user). */
	expect_stale("       100\n", 0, 60000, false);
	/* Whose process is hidden (/proc with hidepid): not ours to judge. */
	expect_stale("       200\n", 1000, 60000, false);
	/* A process that is gone holds nothing. */
	expect_stale("       300\n", 1000, 60000, true);
	expect_stale("       300\n", 0, 60000, true);
	/* Another user's lock cannot hold a number with someone else's process. */
	expect_stale("         1\n", 1000, 60000, true);
	expect_stale("       100\n", 2000, 60000, true);
	/* No pid at all, whoever wrote it: stale, however young. */
	expect_stale("squatted", 2000, 0, true);
	expect_stale("squatted", 0, 0, true);
	expect_stale("\n", 2000, 10, true);
	/* An empty lock is being written, for a second only. */
	expect_stale("", 2000, 0, false);
	expect_stale("", 2000, X_DISPLAY_LOCK_WRITE_MS - 1, false);
	expect_stale("", 2000, X_DISPLAY_LOCK_WRITE_MS, true);
	expect_stale("", 2000, -100000, true);

	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
