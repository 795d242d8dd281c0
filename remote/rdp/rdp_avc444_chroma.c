/* SPDX-License-Identifier: MIT */
#include <stddef.h>
#include "remote/rdp/rdp_avc444_chroma.h"

/*
 * A frame sent as its luma picture alone (LC = 1) shows each 2x2 block
 * with the block's mean chroma: the client spreads the 4:2:0 chroma over
 * the block (FreeRDP's LumaToYUV444). That loses nothing where the three
 * chroma samples the chroma picture carries for a block are its mean:
 * grey text and grey windows, solid colours on even edges. A level off
 * either way is allowed: FreeRDP's SIMD conversion gives black and white
 * pixels chroma a level apart, and their mean falls between. (A block
 * whose fourth sample alone differed would be off by a few levels, less
 * than H.264 loses; the lossless refinement repairs both.)
 *
 * The chroma picture of a row pair, for the block of columns 2k, 2k+1:
 * - its luma rows y (both rows): U of column 2k+1 at k, V at width/2 + k;
 * - its chroma rows y/2: U of column 2k, row y+1, at k/2 in the U plane
 *   for even k and in the V plane for odd k; V at width/4 + k/2 likewise.
 */

/* Whether a and b are more than a level apart, anywhere in n bytes. */
static bool apart(const uint8_t *a, const uint8_t *b, size_t n) {
	unsigned far = 0;
	for (size_t i = 0; i < n; i++) {
		far |= (unsigned)(a[i] - b[i] + 1) > 2u;
	}
	return far != 0;
}

static bool near(uint8_t a, uint8_t b) {
	return (unsigned)(a - b + 1) <= 2u;
}

static bool row_pair_needs_chroma(uint8_t *const luma[3], const uint32_t luma_strides[3],
		uint8_t *const chroma[3], const uint32_t chroma_strides[3], int width, int y,
		int block1, int block2) {
	const uint8_t *u = luma[1] + (size_t)(y / 2) * luma_strides[1];
	const uint8_t *v = luma[2] + (size_t)(y / 2) * luma_strides[2];
	int half = width / 2, quarter = width / 4;
	size_t blocks = (size_t)(block2 - block1);
	for (int row = y; row < y + 2; row++) {
		const uint8_t *odd_columns = chroma[0] + (size_t)row * chroma_strides[0];
		if (apart(odd_columns + block1, u + block1, blocks) ||
				apart(odd_columns + half + block1, v + block1, blocks)) {
			return true;
		}
	}
	/* Even blocks in the U plane, odd ones in the V plane. */
	const uint8_t *by_parity[2] = {
		chroma[1] + (size_t)(y / 2) * chroma_strides[1],
		chroma[2] + (size_t)(y / 2) * chroma_strides[2],
	};
	for (int k = block1; k < block2; k++) {
		const uint8_t *plane = by_parity[k & 1];
		if (!near(plane[k / 2], u[k]) || !near(plane[quarter + k / 2], v[k])) {
			return true;
		}
	}
	return false;
}

bool rdp_avc444_chroma_needed(uint8_t *const luma[3], const uint32_t luma_strides[3],
		uint8_t *const chroma[3], const uint32_t chroma_strides[3], int width,
		int x1, int y1, int x2, int y2) {
	if (width % 4 != 0) {
		/* The layout's quarters do not fall on whole blocks. */
		return true;
	}
	for (int y = y1; y < y2; y += 2) {
		if (row_pair_needs_chroma(luma, luma_strides, chroma, chroma_strides, width, y,
				x1 / 2, x2 / 2)) {
			return true;
		}
	}
	return false;
}
