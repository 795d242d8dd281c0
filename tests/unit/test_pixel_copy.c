/* SPDX-License-Identifier: MIT */
/* Pixel rows and the cursor blend of capture/pixel_copy.c. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "capture/pixel_copy.h"

static uint32_t at(const uint8_t *buf, int stride, int x, int y) {
	uint32_t v;
	memcpy(&v, buf + (size_t)y * stride + (size_t)x * 4, 4);
	return v & 0xffffff;
}

static void test_copy_swap(void) {
	uint8_t src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, dst[8];
	pixel_copy_row(dst, src, 2, true);
	const uint8_t want[8] = { 3, 2, 1, 4, 7, 6, 5, 8 };
	assert(memcmp(dst, want, 8) == 0);
	pixel_copy_row(dst, src, 2, false);
	assert(memcmp(dst, src, 8) == 0);
	/* In place, and an odd count (no vector tail lost). */
	uint8_t many[4 * 37];
	for (size_t i = 0; i < sizeof(many); i++) {
		many[i] = (uint8_t)i;
	}
	pixel_swap_rb(many, 37);
	for (int i = 0; i < 37; i++) {
		const uint8_t *p = many + 4 * i;
		assert(p[0] == 4 * i + 2 && p[1] == 4 * i + 1 && p[2] == 4 * i && p[3] == 4 * i + 3);
	}
	pixel_swap_rb(many, 37);
	for (size_t i = 0; i < sizeof(many); i++) {
		assert(many[i] == (uint8_t)i);
	}
}

static void test_blend(void) {
	enum { W = 4, H = 3, STRIDE = W * 4 };
	uint8_t frame[H * STRIDE];
	for (int i = 0; i < W * H; i++) {
		memcpy(frame + 4 * i, &(uint32_t){ 0x00204060 }, 4);
	}
	/* 2x2: opaque white, transparent, half-transparent black, opaque red. */
	const uint32_t cursor[4] = { 0xffffffff, 0x00000000, 0x80000000, 0xffff0000 };
	pixel_blend_over(frame, W, H, STRIDE, cursor, 2, 2, 3, 2);
	/* Only the top-left cursor pixel lands inside, at (3, 2). */
	assert(at(frame, STRIDE, 3, 2) == 0xffffff);
	assert(at(frame, STRIDE, 2, 2) == 0x204060);
	assert(at(frame, STRIDE, 3, 1) == 0x204060);

	pixel_blend_over(frame, W, H, STRIDE, cursor, 2, 2, -1, -1);
	/* Only the bottom-right (red) pixel lands, at (0, 0). */
	assert(at(frame, STRIDE, 0, 0) == 0xff0000);
	assert(at(frame, STRIDE, 1, 0) == 0x204060);

	pixel_blend_over(frame, W, H, STRIDE, cursor, 2, 2, 1, 0);
	assert(at(frame, STRIDE, 1, 0) == 0xffffff);
	assert(at(frame, STRIDE, 2, 0) == 0x204060); /* transparent */
	/* Half-transparent black halves each channel. */
	assert(at(frame, STRIDE, 1, 1) == 0x102030);
	assert(at(frame, STRIDE, 2, 1) == 0xff0000);
}

int main(void) {
	test_copy_swap();
	test_blend();
	printf("pixel_copy: ok\n");
	return 0;
}
