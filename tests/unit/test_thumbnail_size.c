/* SPDX-License-Identifier: MIT */
/* The size a thumbnail is scaled to (capture/thumbnail_size.c). */
#include "capture/thumbnail_size.h"
#include "expect.h"

static void check(int w, int h, int max_w, int max_h, int want_w, int want_h) {
	int got_w = -1, got_h = -1;
	EXPECT(thumbnail_size(w, h, max_w, max_h, &got_w, &got_h),
		"%dx%d into %dx%d: no size", w, h, max_w, max_h);
	EXPECT(got_w == want_w && got_h == want_h, "%dx%d into %dx%d: %dx%d, not %dx%d",
		w, h, max_w, max_h, got_w, got_h, want_w, want_h);
}

int main(void) {
	check(800, 600, 94, 58, 77, 58);    /* 4:3 into 8:5, as tall */
	check(1920, 1080, 94, 58, 94, 53);  /* 16:9, as wide */
	check(200, 150, 94, 58, 77, 58);
	check(94, 58, 94, 58, 94, 58);      /* as is */
	check(10, 8, 94, 58, 10, 8);        /* never scaled up */
	check(5000, 1, 94, 58, 94, 1);      /* at least 1x1 */
	check(1, 5000, 94, 58, 1, 58);
	check(16384, 16384, 94, 58, 58, 58);
	int w, h;
	EXPECT(!thumbnail_size(0, 100, 94, 58, &w, &h), "an empty picture has a size");
	EXPECT(!thumbnail_size(100, 100, 0, 58, &w, &h), "an empty room has a size");
	EXPECT(!thumbnail_size(-5, 100, 94, 58, &w, &h), "a negative picture has a size");
	return failures ? 1 : 0;
}
