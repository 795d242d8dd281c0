/* SPDX-License-Identifier: MIT */
/* Unit tests for the failures' log summary (remote/log_summary.c). */

#include <stdio.h>
#include <string.h>
#include "remote/log_summary.h"
#include "tests/unit/expect.h"

static struct log_summary summary;

static int shown_of(const char *key, int n, int64_t t) {
	int shown = 0;
	for (int i = 0; i < n; i++) {
		shown += log_summary_note(&summary, key, t);
	}
	return shown;
}

/* The lines log_summary_note_from reports. */
static char reported[4][160];
static int n_reported;

static void report(void *data, const char *line) {
	if (n_reported < 4) {
		snprintf(reported[n_reported], sizeof(reported[0]), "%s", line);
	}
	n_reported++;
}

/* "WHAT from HOST": a flood's count comes as a line before the next note. */
static void test_note_from(void) {
	struct log_summary s = {0};
	int64_t t = 5000000;
	int shown = 0;
	for (int i = 0; i < 25; i++) {
		shown += log_summary_note_from(&s, "failures", "192.0.2.7", t, report, NULL);
	}
	EXPECT(shown == LOG_SUMMARY_LINES, "the first lines of a minute: %d", shown);
	EXPECT(n_reported == 0, "nothing due yet: %d", n_reported);
	EXPECT(log_summary_note_from(&s, "tries while it must wait", "192.0.2.7",
		t + LOG_SUMMARY_WINDOW_MS, report, NULL), "a line of the next minute is shown");
	EXPECT(n_reported == 1, "one count reported: %d", n_reported);
	EXPECT(strcmp(reported[0], "15 more failures from 192.0.2.7 in the last minute") == 0,
		"the count: %s", reported[0]);
}

int main(void) {
	test_note_from();
	int64_t t = 1000000;
	char key[LOG_SUMMARY_KEY_MAX];
	EXPECT(log_summary_due(&summary, t, key) == 0, "nothing due at first");
	/* A flood from one address: its first lines, then a count. */
	EXPECT(shown_of("10.0.0.1", 1000, t) == LOG_SUMMARY_LINES, "lines of a flood");
	EXPECT(log_summary_note(&summary, "10.0.0.2", t + 1), "another address is logged");
	EXPECT(log_summary_due(&summary, t + LOG_SUMMARY_WINDOW_MS - 1, key) == 0,
		"nothing due within the minute");
	EXPECT(log_summary_due(&summary, t + LOG_SUMMARY_WINDOW_MS, key) ==
		1000 - LOG_SUMMARY_LINES, "the count, after the minute");
	EXPECT(strcmp(key, "10.0.0.1") == 0, "of %s", key);
	EXPECT(log_summary_due(&summary, t + LOG_SUMMARY_WINDOW_MS, key) == 0,
		"once; 10.0.0.2 held nothing");
	/* The next minute logs again. */
	EXPECT(log_summary_note(&summary, "10.0.0.1", t + LOG_SUMMARY_WINDOW_MS),
		"a new minute");

	/* Rotating sources: all of them together log a bounded number of lines. */
	memset(&summary, 0, sizeof(summary));
	int shown = 0;
	for (int i = 0; i < 5000; i++) {
		char host[32];
		snprintf(host, sizeof(host), "10.1.%d.%d", i / 256, i % 256);
		shown += log_summary_note(&summary, host, t);
	}
	EXPECT(shown == LOG_SUMMARY_TOTAL, "%d lines for 5000 addresses", shown);
	int64_t later = t + LOG_SUMMARY_WINDOW_MS;
	int held = 0, n, lines = 0;
	while ((n = log_summary_due(&summary, later, key)) > 0) {
		held += n;
		lines++;
	}
	EXPECT(held == 5000 - LOG_SUMMARY_TOTAL, "every line is counted: %d", held);
	EXPECT(lines <= LOG_SUMMARY_KEYS + 1, "in %d summary lines", lines);
	return failures != 0;
}
