/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include "capture/remote/log_summary.h"
#include "compositor/util.h"
#include "gateway/gateway_log.h"

/* The failures of every front's guests, summarised per address. */
static pthread_mutex_t summary_lock = PTHREAD_MUTEX_INITIALIZER;
static struct log_summary summary;

void gateway_log_failure(const char *host, const char *format, ...) {
	int64_t now_ms = monotonic_ms();
	pthread_mutex_lock(&summary_lock);
	char key[64];
	int held;
	while ((held = log_summary_due(&summary, now_ms, key)) > 0) {
		if (key[0]) {
			gateway_log("%s: %d more failed attempts in the last minute", key, held);
		} else {
			gateway_log("%d more failed attempts from other addresses in the last minute",
				held);
		}
	}
	bool show = log_summary_note(&summary, host, now_ms);
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
