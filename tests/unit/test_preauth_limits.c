/* SPDX-License-Identifier: MIT */
/* Unit tests for the guests' caps (remote/preauth_limits.c). */

#include "remote/preauth_limits.h"
#include "tests/unit/expect.h"

int main(void) {
	struct preauth_limits limits = { .per_address = 4, .total = 64 };
	EXPECT(preauth_decide(&limits, 0, 0) == PREAUTH_ADMIT, "the first");
	EXPECT(preauth_decide(&limits, 63, 3) == PREAUTH_ADMIT, "below both caps");
	EXPECT(preauth_decide(&limits, 10, 4) == PREAUTH_EVICT_SAME_ADDRESS,
		"a fifth from one address pushes out that address's oldest");
	EXPECT(preauth_decide(&limits, 64, 0) == PREAUTH_EVICT_BUSIEST,
		"a new address when all are taken pushes out the busiest's oldest");
	EXPECT(preauth_decide(&limits, 64, 4) == PREAUTH_EVICT_SAME_ADDRESS,
		"a full address pays for itself first");
	return failures != 0;
}
