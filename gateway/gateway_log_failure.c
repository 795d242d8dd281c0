/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include "remote/log_summary.h"
#include "common/util.h"
#include "gateway/gateway_log.h"

/* The failures of every front's guests, summarised per address. */
static pthread_mutex_t summary_lock = PTHREAD_MUTEX_INITIALIZER;
static struct log_summary summary;

void gateway_log_summarised(const char *what, const char *host, const char *format, ...) {
	int64_t now_ms = monotonic_ms();
	char key[LOG_SUMMARY_KEY_MAX], due[LOG_SUMMARY_KEY_MAX];
	snprintf(key, sizeof(key), "%s from %s", what, host);
	pthread_mutex_lock(&summary_lock);
	int held;
	while ((held = log_summary_due(&summary, now_ms, due)) > 0) {
		gateway_log("%d more %s in the last minute", held,
			due[0] ? due : "failures and tries from other addresses");
	}
	bool show = log_summary_note(&summary, key, now_ms);
	pthread_mutex_unlock(&summary_lock);
	if (show) {
		char line[1024];
		va_list args;
		va_start(args, format);
		vsnprintf(line, sizeof(line), format, args);
		va_end(args);
		gateway_log("%s", line);
	}
}
