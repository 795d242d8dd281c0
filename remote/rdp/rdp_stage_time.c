/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_stage_time.h"

#define SAMPLES 60

static const char *const stage_names[RDP_STAGE_COUNT] = {
	"copy", "convert", "send",
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t samples[RDP_STAGE_COUNT][SAMPLES];
static int n_samples[RDP_STAGE_COUNT];

static bool enabled(void) {
	static int on = -1;
	if (on < 0) {
		const char *env = getenv("ORIEL_RDP_STAGE_TIMES");
		on = env && env[0] == '1';
	}
	return on;
}

static int64_t thread_cpu_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t rdp_stage_begin(void) {
	return enabled() ? thread_cpu_ns() : 0;
}

static int compare(const void *a, const void *b) {
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void rdp_stage_end(enum rdp_stage stage, int64_t begin) {
	if (!enabled()) {
		return;
	}
	int64_t spent = thread_cpu_ns() - begin;
	pthread_mutex_lock(&lock);
	samples[stage][n_samples[stage]++] = spent;
	if (n_samples[stage] == SAMPLES) {
		int64_t sum = 0;
		for (int i = 0; i < SAMPLES; i++) {
			sum += samples[stage][i];
		}
		qsort(samples[stage], SAMPLES, sizeof(samples[stage][0]), compare);
		wlr_log(WLR_INFO, "RDP: stage %s: median %.3f ms, mean %.3f ms over %d",
			stage_names[stage], samples[stage][SAMPLES / 2] / 1e6,
			sum / 1e6 / SAMPLES, SAMPLES);
		n_samples[stage] = 0;
	}
	pthread_mutex_unlock(&lock);
}
