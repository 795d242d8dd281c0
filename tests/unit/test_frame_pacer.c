/* SPDX-License-Identifier: MIT */
/* Unit tests for compositor/frame_pacer.c: when a headless output may present. */

#include <stdio.h>
#include "compositor/frame_pacer.h"
#include "expect.h"

#define PERIOD 16667

/* An app at the refresh rate, in any phase and with some jitter, is never held back. */
static void test_app_at_refresh_rate(void) {
	struct frame_pacer p;
	frame_pacer_init(&p, PERIOD);
	int64_t t = 5000; /* the app's phase */
	int64_t allowed = 0;
	for (int i = 0; i < 600 && !failures; i++) {
		EXPECT(t >= allowed, "frame %d at %lld us held until %lld us", i,
			(long long)t, (long long)allowed);
		allowed = t + frame_pacer_presented(&p, t);
		t += PERIOD + (i % 3 == 0 ? -300 : 150);
	}
}

/* A client presenting as fast as it is let through gets the refresh rate on average. */
static void test_fast_client_is_held(void) {
	struct frame_pacer p;
	frame_pacer_init(&p, PERIOD);
	int64_t t = 0;
	int frames = 0;
	while (t < 1000000) { /* one second */
		int64_t wait = frame_pacer_presented(&p, t);
		frames++;
		t += wait > 100 ? wait : 100; /* it commits 100 us after being let through */
	}
	int most = 60 + 60 / FRAME_PACER_CATCH_UP + FRAME_PACER_BURST;
	EXPECT(frames >= 60 && frames <= most, "%d frames in a second at 60 Hz (at most %d)",
		frames, most);
}

/*
 * An app at the refresh rate that was held back once, by a burst of
 * presents just before its first frame, is not held back for good: within
 * CATCH_UP frames it is shown the moment it commits again.
 */
static void test_app_catches_up_after_a_burst(void) {
	struct frame_pacer p;
	frame_pacer_init(&p, PERIOD);
	int64_t t = 0;
	for (int i = 0; i < 4; i++, t += 100) /* e.g. a window mapping */
		frame_pacer_presented(&p, t);
	int64_t allowed = t + frame_pacer_presented(&p, t);
	t += 1000; /* the app's first frame, right after */
	int held = 0, last_held = -1;
	for (int i = 0; i < 120; i++, t += PERIOD) {
		int64_t shown = t > allowed ? t : allowed;
		if (shown > t) {
			held++;
			last_held = i;
		}
		allowed = shown + frame_pacer_presented(&p, shown);
	}
	EXPECT(held > 0, "the burst held the app back at first");
	EXPECT(last_held < FRAME_PACER_CATCH_UP + 2,
		"the app was still held back at frame %d", last_held);
}

/* After a pause the credit is full again, but never more than the burst. */
static void test_credit_is_capped(void) {
	struct frame_pacer p;
	frame_pacer_init(&p, PERIOD);
	frame_pacer_presented(&p, 0);
	int64_t t = 10 * 1000000; /* ten idle seconds */
	int immediate = 0;
	while (frame_pacer_presented(&p, t) == 0) {
		immediate++;
		t += 10;
	}
	EXPECT(immediate == FRAME_PACER_BURST - 1,
		"%d frames let through at once after a pause", immediate);
	EXPECT(frame_pacer_presented(&p, t + PERIOD) > 0, "then the refresh rate holds");
}

int main(void) {
	test_app_at_refresh_rate();
	test_fast_client_is_held();
	test_app_catches_up_after_a_burst();
	test_credit_is_capped();
	return failures ? 1 : 0;
}
