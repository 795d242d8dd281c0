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
	EXPECT(frames >= 60 && frames <= 60 + FRAME_PACER_BURST,
		"%d frames in a second at 60 Hz", frames);
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
	test_credit_is_capped();
	return failures ? 1 : 0;
}
