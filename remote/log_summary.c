/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include "remote/log_summary.h"

static bool over(int64_t start_ms, int64_t now_ms) {
	return now_ms - start_ms >= LOG_SUMMARY_WINDOW_MS;
}

static struct log_summary_entry *entry_of(struct log_summary *summary, const char *key,
		int64_t now_ms) {
	struct log_summary_entry *free_slot = NULL, *oldest = NULL;
	for (int i = 0; i < LOG_SUMMARY_KEYS; i++) {
		struct log_summary_entry *e = &summary->entries[i];
		if (!e->key[0]) {
			free_slot = free_slot ? free_slot : e;
		} else if (strncmp(e->key, key, sizeof(e->key) - 1) == 0) {
			return e;
		} else if (!oldest || e->start_ms < oldest->start_ms) {
			oldest = e;
		}
	}
	struct log_summary_entry *e = free_slot ? free_slot : oldest;
	summary->others_held += e->held;
	*e = (struct log_summary_entry){ .start_ms = now_ms };
	snprintf(e->key, sizeof(e->key), "%s", key[0] ? key : "?");
	return e;
}

bool log_summary_note(struct log_summary *summary, const char *key, int64_t now_ms) {
	if (summary->shown == 0 || over(summary->start_ms, now_ms)) {
		summary->start_ms = now_ms;
		summary->shown = 0;
	}
	struct log_summary_entry *e = entry_of(summary, key, now_ms);
	if (over(e->start_ms, now_ms)) {
		/* Its count is due first (log_summary_due); a new minute begins. */
		summary->others_held += e->held;
		e->start_ms = now_ms;
		e->shown = e->held = 0;
	}
	if (e->shown < LOG_SUMMARY_LINES && summary->shown < LOG_SUMMARY_TOTAL) {
		e->shown++;
		summary->shown++;
		return true;
	}
	e->held++;
	return false;
}

int log_summary_due(struct log_summary *summary, int64_t now_ms,
		char key[LOG_SUMMARY_KEY_MAX]) {
	for (int i = 0; i < LOG_SUMMARY_KEYS; i++) {
		struct log_summary_entry *e = &summary->entries[i];
		if (e->key[0] && over(e->start_ms, now_ms)) {
			int held = e->held;
			snprintf(key, LOG_SUMMARY_KEY_MAX, "%s", e->key);
			*e = (struct log_summary_entry){0};
			if (held > 0) {
				return held;
			}
		}
	}
	int held = summary->others_held;
	summary->others_held = 0;
	key[0] = '\0';
	return held;
}

bool log_summary_note_from(struct log_summary *summary, const char *what, const char *host,
		int64_t now_ms, log_summary_report_fn report, void *data) {
	char key[LOG_SUMMARY_KEY_MAX], due[LOG_SUMMARY_KEY_MAX];
	int held;
	while ((held = log_summary_due(summary, now_ms, due)) > 0) {
		char line[LOG_SUMMARY_KEY_MAX + 64];
		snprintf(line, sizeof(line), "%d more %s in the last minute", held,
			due[0] ? due : "failures and tries from other addresses");
		report(data, line);
	}
	snprintf(key, sizeof(key), "%s from %s", what, host);
	return log_summary_note(summary, key, now_ms);
}
