/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "remote/rdp/rdp_chroma_share.h"

void rdp_chroma_share_init(struct rdp_chroma_share *share, double budget_ms) {
	*share = (struct rdp_chroma_share){ .budget_ms = budget_ms };
	if (budget_ms < 0) {
		const char *env = getenv("ORIEL_RDP_CHROMA_BUDGET_MS");
		share->budget_ms = env && *env ? atof(env) : RDP_CHROMA_BUDGET_MS;
	}
}

void rdp_chroma_share_encoded(struct rdp_chroma_share *share, bool chroma, double ms) {
	double *mean = chroma ? &share->chroma_ms : &share->luma_ms;
	/* About the last four pictures: quick to follow a change of content. */
	*mean = *mean > 0 ? (*mean * 3 + ms) / 4 : ms;
}

bool rdp_chroma_share_next(struct rdp_chroma_share *share) {
	if (share->luma_ms + share->chroma_ms <= share->budget_ms) {
		share->credit = 0;
		share->without = 0;
		return true;
	}
	/* The share of frames whose chroma fits beside every frame's luma. */
	double fits = (share->budget_ms - share->luma_ms) / share->chroma_ms;
	share->credit += fits > 0 ? fits : 0;
	if (share->credit >= 1 || ++share->without >= RDP_CHROMA_MIN_EVERY) {
		share->credit = share->credit >= 1 ? share->credit - 1 : 0;
		share->without = 0;
		return true;
	}
	return false;
}
