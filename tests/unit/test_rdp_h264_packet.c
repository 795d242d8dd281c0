/* SPDX-License-Identifier: MIT */
/*
 * FreeRDP 2.11's H.264 encoder contexts leave nothing on the heap once
 * rdp_h264_release_packet (remote/rdp/rdp_h264_packet.c) ran before
 * h264_context_free: contexts are made, encode frames and are freed, as
 * for graphics pipeline clients, and the main heap's allocated bytes
 * (mallinfo2; the encoding's packets are allocated on the calling
 * thread) are compared after some of them and after many more. Without
 * the release, each context keeps its last packet (hundreds of bytes
 * here, kilobytes at desktop sizes). Skipped where FreeRDP has no H.264
 * encoder, and under AddressSanitizer (whose allocator mallinfo2 does
 * not see).
 */

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <freerdp/codec/color.h>
#include <freerdp/codec/h264.h>
#include <winpr/crt.h>
#include "remote/rdp/rdp_h264_packet.h"
#include "expect.h"

enum { SIDE = 64, FRAMES = 3, WARMUP = 5, RUNS = 40 };

/* One client's encoder: made, a few frames, freed. False: no H.264 here. */
static bool one_context(uint8_t *frame, bool release) {
	H264_CONTEXT *avc = h264_context_new(TRUE);
	if (!avc) {
		return false;
	}
	avc->RateControlMode = H264_RATECONTROL_VBR;
	avc->BitRate = 2000000;
	avc->FrameRate = 60;
	avc->QP = 22;
	bool ok = h264_context_reset(avc, SIDE, SIDE);
	for (int i = 0; ok && i < FRAMES; i++) {
		frame[i * 4 * 17] ^= 0xff; /* something changes */
		BYTE *data = NULL;
		UINT32 length = 0;
		ok = avc420_compress(avc, frame, PIXEL_FORMAT_BGRX32, SIDE * 4, SIDE, SIDE,
			&data, &length) >= 0 && length > 0;
	}
	/* As rdp_gfx_h264.c frees its contexts: h264_context_free leaves these. */
	for (int i = 0; i < 3; i++) {
		_aligned_free(avc->pYUVData[i]);
		avc->pYUVData[i] = NULL;
	}
	if (release) {
		rdp_h264_release_packet(avc);
	}
	h264_context_free(avc);
	return ok;
}

/* Bytes the main heap holds after RUNS more contexts. */
static long growth(uint8_t *frame, bool release) {
	malloc_trim(0);
	long before = (long)mallinfo2().uordblks;
	for (int i = 0; i < RUNS; i++) {
		one_context(frame, release);
	}
	malloc_trim(0);
	return (long)mallinfo2().uordblks - before;
}

int main(void) {
#if defined(__SANITIZE_ADDRESS__)
	/* The sanitizer's allocator is not glibc's: mallinfo2 says nothing. */
	fprintf(stderr, "under AddressSanitizer: skipped\n");
	return 77;
#endif
	uint8_t *frame = calloc(SIDE * SIDE, 4);
	if (!frame || !one_context(frame, true)) {
		fprintf(stderr, "no H.264 encoder in FreeRDP here: skipped\n");
		free(frame);
		return 77;
	}
	for (int i = 0; i < WARMUP; i++) {
		one_context(frame, true);
	}
	long kept = growth(frame, false);
	long released = growth(frame, true);
	printf("%d contexts: %+ld bytes without the release, %+ld with it\n", RUNS, kept,
		released);
	/* Each kept packet is a few hundred bytes at least. */
	EXPECT(kept >= RUNS * 100, "without the release only %+ld bytes stayed: the test "
		"measures nothing", kept);
	EXPECT(released < RUNS * 16, "%+ld bytes stayed after %d contexts", released, RUNS);
	free(frame);
	return failures != 0;
}
