/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <freerdp/codec/dsp.h>
#include <winpr/stream.h>
#include "remote/rdp/rdp_dsp_sign.h"

#define RATE 48000
#define FRAMES 960 /* 20 ms */

bool rdp_dsp_flips_sign(enum rdp_dsp_direction direction) {
	static int flips[2] = { -1, -1 };
	if (flips[direction] >= 0) {
		return flips[direction];
	}
	flips[direction] = 0;
	AUDIO_FORMAT format = {
		.wFormatTag = WAVE_FORMAT_PCM, .nChannels = 2, .nSamplesPerSec = RATE,
		.nAvgBytesPerSec = RATE * 4, .nBlockAlign = 4, .wBitsPerSample = 16,
	};
	bool encode = direction == RDP_DSP_ENCODE;
	FREERDP_DSP_CONTEXT *dsp = freerdp_dsp_context_new(encode);
	wStream *out = Stream_New(NULL, 4096);
	int16_t samples[FRAMES * 2] = { 0 };
	samples[0] = 1000;
	const BYTE *in = (const BYTE *)samples;
	if (dsp && out && freerdp_dsp_context_reset(dsp, &format) &&
			(encode ? freerdp_dsp_encode(dsp, &format, in, sizeof(samples), out) :
				freerdp_dsp_decode(dsp, &format, in, sizeof(samples), out)) &&
			Stream_GetPosition(out) >= 2) {
		const BYTE *b = Stream_Buffer(out);
		flips[direction] = (int16_t)(b[0] | b[1] << 8) == (int16_t)(1000 ^ 0x8000);
	}
	Stream_Free(out, TRUE);
	freerdp_dsp_context_free(dsp);
	return flips[direction];
}
