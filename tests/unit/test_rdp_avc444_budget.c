/* SPDX-License-Identifier: MIT */
/* Unit tests for auto's choice between AVC444v2 and AVC420 (remote/rdp/rdp_avc444_budget.c). */

#include "remote/rdp/rdp_avc444_budget.h"
#include "tests/unit/expect.h"

/* Frames of encode_ms every 16 ms from *now: the frame that fell back, or 0. */
static int frames(struct rdp_avc444_budget *b, int n, bool avc444, double encode_ms,
		int64_t *now) {
	int fell = 0;
	for (int i = 1; i <= n; i++) {
		*now += 16;
		if (rdp_avc444_budget_frame(b, avc444, encode_ms, *now) && !fell) {
			fell = i;
		}
	}
	return fell;
}

int main(void) {
	struct rdp_avc444_budget b;
	int64_t now = 1000;

	rdp_avc444_budget_init(&b);
	EXPECT(frames(&b, 600, true, 12.0, &now) == 0, "12 ms frames fell back");
	EXPECT(!rdp_avc444_budget_renewed(&b, now + 5000), "renewed without falling back");

	/* A slow key frame, or a few slow frames among fast ones, is no burst. */
	rdp_avc444_budget_init(&b);
	EXPECT(frames(&b, 1, true, 400.0, &now) == 0, "a 400 ms key frame fell back");
	EXPECT(frames(&b, 40, true, 8.0, &now) == 0, "fell back after a slow key frame");
	for (int i = 0; i < 10; i++) {
		EXPECT(frames(&b, 1, true, 60.0, &now) == 0, "a 60 ms frame fell back");
		EXPECT(frames(&b, 1, true, 8.0, &now) == 0, "fell back among fast frames");
	}

	/* A burst that does not fit: AVC420 from the frames that show it. */
	rdp_avc444_budget_init(&b);
	frames(&b, 40, true, 8.0, &now);
	int fell = frames(&b, 40, true, 30.0, &now);
	EXPECT(fell == 9, "30 ms frames fell back after %d frames, not 9", fell);
	/* A short start does not judge. */
	rdp_avc444_budget_init(&b);
	fell = frames(&b, 40, true, 30.0, &now);
	EXPECT(fell == 16, "30 ms frames from the start fell back after %d frames, not 16", fell);

	/* Back once still for 2 s, not while AVC420 frames go on. */
	frames(&b, 100, false, 0, &now);
	EXPECT(!rdp_avc444_budget_renewed(&b, now + 1000), "renewed while moving");
	EXPECT(!rdp_avc444_budget_renewed(&b, now + 1999), "renewed before 2 s of stillness");
	EXPECT(rdp_avc444_budget_renewed(&b, now + 2000), "not renewed after 2 s of stillness");
	EXPECT(!rdp_avc444_budget_renewed(&b, now + 9000), "renewed twice");
	now += 2000;
	EXPECT(frames(&b, 15, true, 30.0, &now) == 0, "renewed budget judged before 16 frames");
	EXPECT(frames(&b, 1, true, 30.0, &now) == 1, "renewed budget did not fall back again");
	return expect_report();
}
