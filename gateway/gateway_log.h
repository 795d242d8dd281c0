/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_LOG_H
#define ORIEL_GATEWAY_LOG_H

#include <stdbool.h>

/*
 * One line on stderr, "oriel-gateway: " first: the journal (or the
 * terminal) keeps the time. The gateway and its session monitors are
 * small root processes: they link no compositor library for this.
 */
void gateway_log(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* Only with --debug: every connection and how it ended. */
void gateway_log_debug(const char *format, ...) __attribute__((format(printf, 1, 2)));
void gateway_log_set_debug(bool debug);
/*
 * A line of a kind that one address can repeat at will: its failures (a
 * wrong password, a refused login, a guessed routing token; what is
 * "failures"), or its tries while it must wait ("tries while it must
 * wait"). Logged, or counted once host logged many of what this minute;
 * the count is logged after the minute, as "N more WHAT from HOST in the
 * last minute" (remote/log_summary.h). In gateway_log_failure.c:
 * the session monitor does without it.
 */
void gateway_log_summarised(const char *what, const char *host, const char *format, ...)
	__attribute__((format(printf, 3, 4)));

#endif
