/* SPDX-License-Identifier: MIT */
#include "remote/preauth_limits.h"

enum preauth_decision preauth_decide(const struct preauth_limits *limits, int n_total,
		int n_same) {
	if (n_same >= limits->per_address) {
		return PREAUTH_EVICT_SAME_ADDRESS;
	}
	if (n_total >= limits->total) {
		return PREAUTH_EVICT_BUSIEST;
	}
	return PREAUTH_ADMIT;
}
