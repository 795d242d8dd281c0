/* SPDX-License-Identifier: MIT */
/* Unit tests for compositor/present_clock.c: presentation-time's refresh and seq. */

#include <stdio.h>
#include "compositor/present_clock.h"
#include "expect.h"

static void test_period(void) {
	EXPECT(present_clock_period_ns(60000) == 16666667, "60 Hz: %lld ns",
		(long long)present_clock_period_ns(60000));
	EXPECT(present_clock_period_ns(59940) == 16683350, "59.94 Hz: %lld ns",
		(long long)present_clock_period_ns(59940));
	EXPECT(present_clock_period_ns(0) == 0, "no rate: 0");
}

/* Presents at the refresh rate count one vblank each, like an MSC. */
static void test_counts_vblanks(void) {
	struct present_clock c;
	int64_t period = present_clock_period_ns(60000);
	present_clock_init(&c, period, 1000);
	uint64_t first = present_clock_present(&c, 1000 + period / 2);
	uint64_t later = present_clock_present(&c, 1000 + 10 * period + period / 2);
	EXPECT(later - first == 10, "10 periods later: %llu after %llu",
		(unsigned long long)later, (unsigned long long)first);
}

/* Presents closer than a period (the pacer's burst) still go up. */
static void test_always_increases(void) {
	struct present_clock c;
	present_clock_init(&c, 16666667, 0);
	uint64_t last = present_clock_present(&c, 5);
	for (int i = 1; i < 100 && !failures; i++) {
		uint64_t seq = present_clock_present(&c, 5 + i * 1000);
		EXPECT(seq > last, "present %d: %llu after %llu", i,
			(unsigned long long)seq, (unsigned long long)last);
		last = seq;
	}
}

/* A mode change keeps counting up, at the new rate. */
static void test_mode_change(void) {
	struct present_clock c;
	int64_t p60 = present_clock_period_ns(60000), p30 = present_clock_period_ns(30000);
	present_clock_init(&c, p60, 0);
	uint64_t before = present_clock_present(&c, 100 * p60);
	present_clock_set_period(&c, p30, 100 * p60 + 10);
	uint64_t after = present_clock_present(&c, 100 * p60 + 10);
	EXPECT(after > before, "after the change: %llu, before: %llu",
		(unsigned long long)after, (unsigned long long)before);
	uint64_t next = present_clock_present(&c, 100 * p60 + 10 + 4 * p30);
	EXPECT(next - after == 4, "4 periods of 30 Hz: %llu after %llu",
		(unsigned long long)next, (unsigned long long)after);
}

int main(void) {
	test_period();
	test_counts_vblanks();
	test_always_increases();
	test_mode_change();
	return failures ? 1 : 0;
}
