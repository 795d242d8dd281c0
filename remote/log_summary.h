/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_LOG_SUMMARY_H
#define ORIEL_REMOTE_LOG_SUMMARY_H

/*
 * Log lines of failures, summarised per source address, so that a flood
 * cannot bury a real login in the log: an address's first
 * LOG_SUMMARY_LINES lines of a minute are logged, the rest counted, and
 * the count is logged as one line once its minute is over ("N more in
 * the last minute"). All addresses together log at most
 * LOG_SUMMARY_TOTAL lines a minute. Pure: times are given; not
 * thread-safe. Call log_summary_due until 0 before each note, so that
 * each count is told of its own address.
 */

#include <stdbool.h>
#include <stdint.h>

#define LOG_SUMMARY_LINES 10
#define LOG_SUMMARY_TOTAL 100
#define LOG_SUMMARY_WINDOW_MS 60000
#define LOG_SUMMARY_KEYS 64
#define LOG_SUMMARY_KEY_MAX 96

struct log_summary_entry {
	char key[LOG_SUMMARY_KEY_MAX]; /* "": a free slot */
	int64_t start_ms; /* its minute began */
	int shown, held;
};

/* Zeroed: empty. */
struct log_summary {
	struct log_summary_entry entries[LOG_SUMMARY_KEYS];
	int64_t start_ms; /* the minute of all addresses */
	int shown;
	int others_held; /* counted for addresses that lost their slot */
};

/* One more line of key's: true when it is to be logged, false when counted. */
bool log_summary_note(struct log_summary *summary, const char *key, int64_t now_ms);

/*
 * A count whose minute is over: how many lines it held back (0 when none
 * is due), with its address in key ("" for addresses that lost their
 * slot to others). Call until 0.
 */
int log_summary_due(struct log_summary *summary, int64_t now_ms,
	char key[LOG_SUMMARY_KEY_MAX]);

/* A count that fell due, as one line: "3 more failures from 192.0.2.7 in the last minute". */
typedef void (*log_summary_report_fn)(void *data, const char *line);

/*
 * One more line of what ("failures") from host, its key "WHAT from
 * HOST": reports every count due first, then says whether this line is
 * to be logged.
 */
bool log_summary_note_from(struct log_summary *summary, const char *what, const char *host,
	int64_t now_ms, log_summary_report_fn report, void *data);

#endif
