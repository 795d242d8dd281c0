/* SPDX-License-Identifier: MIT */
/* Unit tests for which AVC444v2 frames carry chroma (remote/rdp/rdp_chroma_share.c). */

#include "remote/rdp/rdp_chroma_share.h"
#include "tests/unit/expect.h"

/* Runs frames frames whose pictures take luma and chroma ms: how many carried chroma. */
static int run(struct rdp_chroma_share *share, int frames, double luma, double chroma,
		int *longest_without) {
	int with = 0, without = 0;
	*longest_without = 0;
	for (int i = 0; i < frames; i++) {
		bool c = rdp_chroma_share_next(share);
		rdp_chroma_share_encoded(share, false, luma);
		if (c) {
			rdp_chroma_share_encoded(share, true, chroma);
			with++;
			without = 0;
		} else if (++without > *longest_without) {
			*longest_without = without;
		}
	}
	return with;
}

int main(void) {
	struct rdp_chroma_share share;
	int longest;

	/* Both pictures within a 60 Hz frame: chroma in every frame. */
	rdp_chroma_share_init(&share, RDP_CHROMA_BUDGET_MS);
	EXPECT(run(&share, 100, 6, 9, &longest) == 100, "fast pictures: chroma not in every frame");

	/* Luma 10 ms, chroma 10: 6.7 ms left a frame, two thirds of the chroma fit. */
	rdp_chroma_share_init(&share, RDP_CHROMA_BUDGET_MS);
	int with = run(&share, 300, 10, 10, &longest);
	EXPECT(with >= 190 && with <= 210, "10+10 ms: chroma in %d of 300 frames, want ~200", with);
	EXPECT(longest <= 1, "10+10 ms: %d frames in a row without chroma", longest);

	/* Luma alone over budget: chroma still once in RDP_CHROMA_MIN_EVERY frames. */
	rdp_chroma_share_init(&share, RDP_CHROMA_BUDGET_MS);
	with = run(&share, 400, 20, 20, &longest);
	EXPECT(with == 400 / RDP_CHROMA_MIN_EVERY, "20+20 ms: chroma in %d of 400 frames", with);
	EXPECT(longest == RDP_CHROMA_MIN_EVERY - 1, "20+20 ms: %d frames in a row without chroma",
		longest);

	/* The machine gets quiet again: back to every frame within a few frames. */
	run(&share, 20, 6, 9, &longest);
	EXPECT(run(&share, 50, 6, 9, &longest) == 50, "quiet again: chroma not in every frame");

	/* The first frame, before anything is measured, carries chroma. */
	rdp_chroma_share_init(&share, RDP_CHROMA_BUDGET_MS);
	EXPECT(rdp_chroma_share_next(&share), "first frame without chroma");
	return expect_report();
}
