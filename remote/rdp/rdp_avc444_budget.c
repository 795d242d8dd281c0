/* SPDX-License-Identifier: MIT */
#include "remote/rdp/rdp_avc444_budget.h"

/* A frame's time at 60 Hz: a client at the app's pace gets every frame. */
#define BUDGET_MS (1000.0 / 60)
/* Still this long, AVC444v2 comes back. */
#define STILL_MS 2000

void rdp_avc444_budget_init(struct rdp_avc444_budget *budget) {
	*budget = (struct rdp_avc444_budget){ 0 };
}

/*
 * Counting late frames rather than averaging their times: a key frame or
 * a moment of a busy machine is one late frame, not a burst.
 */
bool rdp_avc444_budget_frame(struct rdp_avc444_budget *budget, bool avc444,
		double encode_ms, int64_t now_ms) {
	budget->last_frame_ms = now_ms;
	if (!avc444 || budget->over) {
		return false;
	}
	budget->late = budget->late << 1 | (encode_ms > BUDGET_MS);
	budget->frames++;
	uint32_t judged = (1u << RDP_AVC444_BUDGET_FRAMES) - 1;
	if (budget->frames >= RDP_AVC444_BUDGET_FRAMES &&
			__builtin_popcount(budget->late & judged) > RDP_AVC444_BUDGET_LATE) {
		budget->over = true;
		return true;
	}
	return false;
}

bool rdp_avc444_budget_renewed(struct rdp_avc444_budget *budget, int64_t now_ms) {
	if (!budget->over || now_ms - budget->last_frame_ms < STILL_MS) {
		return false;
	}
	rdp_avc444_budget_init(budget);
	return true;
}
