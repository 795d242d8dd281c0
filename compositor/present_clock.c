/* SPDX-License-Identifier: MIT */
#include "compositor/present_clock.h"

int64_t present_clock_period_ns(int refresh_mhz) {
	if (refresh_mhz <= 0) {
		return 0;
	}
	return (1000000000000LL + refresh_mhz / 2) / refresh_mhz;
}

void present_clock_init(struct present_clock *clock, int64_t period_ns, int64_t now_ns) {
	*clock = (struct present_clock){
		.epoch_ns = now_ns,
		.period_ns = period_ns,
	};
}

static uint64_t vblanks_at(const struct present_clock *clock, int64_t now_ns) {
	if (clock->period_ns <= 0 || now_ns <= clock->epoch_ns) {
		return clock->epoch_seq;
	}
	return clock->epoch_seq + (uint64_t)((now_ns - clock->epoch_ns) / clock->period_ns);
}

void present_clock_set_period(struct present_clock *clock, int64_t period_ns,
		int64_t now_ns) {
	uint64_t now_seq = vblanks_at(clock, now_ns);
	if (clock->presented && now_seq <= clock->last_seq) {
		now_seq = clock->last_seq + 1;
	}
	clock->epoch_seq = now_seq;
	clock->epoch_ns = now_ns;
	clock->period_ns = period_ns;
}

uint64_t present_clock_present(struct present_clock *clock, int64_t now_ns) {
	uint64_t seq = vblanks_at(clock, now_ns);
	if (clock->presented && seq <= clock->last_seq) {
		seq = clock->last_seq + 1;
	}
	clock->last_seq = seq;
	clock->presented = true;
	return seq;
}
