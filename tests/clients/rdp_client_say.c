/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include "rdp_client_say.h"

static pthread_mutex_t say_lock = PTHREAD_MUTEX_INITIALIZER;

void rdp_client_say(const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&say_lock);
	printf("%s\n", line); /* one call: stdio keeps it whole */
	fflush(stdout);
	pthread_mutex_unlock(&say_lock);
}

uint64_t rdp_client_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
