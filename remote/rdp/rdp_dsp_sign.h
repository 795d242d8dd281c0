/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_DSP_SIGN_H
#define ORIEL_REMOTE_RDP_RDP_DSP_SIGN_H

#include <stdbool.h>

/*
 * Whether FreeRDP's DSP, taking 16-bit stereo PCM at 48 kHz to the same
 * PCM, flips the samples' sign bits: FreeRDP 2.11 as Debian builds it
 * (its DSP through libavcodec) treats them as unsigned, both ways. Each
 * direction is tried once, on a sample of known sign, and remembered.
 */
enum rdp_dsp_direction {
	RDP_DSP_ENCODE, /* sound to the client (rdpsnd) */
	RDP_DSP_DECODE, /* the client's microphone (audin) */
};

bool rdp_dsp_flips_sign(enum rdp_dsp_direction direction);

#endif
