/* SPDX-License-Identifier: MIT */
#include "compositor/frame_pacer.h"

void frame_pacer_init(struct frame_pacer *pacer, int64_t period_us) {
	pacer->period_us = period_us > 0 ? period_us : 1;
	pacer->credit_us = FRAME_PACER_BURST * pacer->period_us;
	pacer->last_us = INT64_MIN;
}

int64_t frame_pacer_presented(struct frame_pacer *pacer, int64_t now_us) {
	int64_t full = FRAME_PACER_BURST * pacer->period_us;
	if (pacer->last_us != INT64_MIN && now_us > pacer->last_us) {
		int64_t earned = now_us - pacer->last_us;
		pacer->credit_us = earned >= full - pacer->credit_us ? full :
			pacer->credit_us + earned;
	}
	pacer->last_us = now_us;
	pacer->credit_us -= pacer->period_us;
	/* Credit can go below zero when presents came faster than allowed. */
	return pacer->credit_us >= pacer->period_us ? 0 :
		pacer->period_us - pacer->credit_us;
}
