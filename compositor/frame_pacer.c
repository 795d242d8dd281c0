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
		int64_t elapsed = now_us - pacer->last_us;
		int64_t earned = elapsed + elapsed / FRAME_PACER_CATCH_UP;
		pacer->credit_us = earned >= full - pacer->credit_us ? full :
			pacer->credit_us + earned;
	}
	pacer->last_us = now_us;
	/*
	 * Presents that came faster than allowed (a commit outside a frame
	 * event) cost no more than all the credit: a debt would hold frames
	 * back for longer than the catch-up can repay quickly.
	 */
	pacer->credit_us = pacer->credit_us > pacer->period_us ?
		pacer->credit_us - pacer->period_us : 0;
	return pacer->credit_us >= pacer->period_us ? 0 :
		pacer->period_us - pacer->credit_us;
}
