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

static void report(void *data, const char *line) {
	gateway_log("%s", line);
}

void gateway_log_summarised(const char *what, const char *host, const char *format, ...) {
	pthread_mutex_lock(&summary_lock);
	bool show = log_summary_note_from(&summary, what, host, monotonic_ms(), report, NULL);
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
