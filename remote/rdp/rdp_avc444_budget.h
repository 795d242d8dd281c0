/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_AVC444_BUDGET_H
#define ORIEL_REMOTE_RDP_RDP_AVC444_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

/*
 * --rdp-codec auto between AVC444v2 and AVC420, for a client that takes
 * both: AVC444v2 while most of its frames are encoded within a frame's
 * time at 60 Hz; AVC420 from a burst that does not fit (colourful motion
 * over a large desktop) until the screen has been still for a while,
 * when what did not fit has stopped.
 */
struct rdp_avc444_budget {
	uint32_t late;         /* the last AVC444v2 frames, a bit each: 1 if late */
	unsigned frames;       /* AVC444v2 frames judged */
	bool over;             /* AVC420 until the screen is still */
	int64_t last_frame_ms; /* when the last H.264 frame was encoded */
};

/* The AVC444v2 frames judged together, and how many of them may be late. */
#define RDP_AVC444_BUDGET_FRAMES 16
#define RDP_AVC444_BUDGET_LATE 8

void rdp_avc444_budget_init(struct rdp_avc444_budget *budget);

/*
 * An H.264 frame was encoded at now_ms, in encode_ms if it was AVC444v2.
 * True when AVC444v2 just stopped keeping up: the next frames go AVC420.
 */
bool rdp_avc444_budget_frame(struct rdp_avc444_budget *budget, bool avc444,
	double encode_ms, int64_t now_ms);

/*
 * Before an H.264 frame that goes AVC420 for want of time: true when the
 * screen has been still long enough that AVC444v2 may come back.
 */
bool rdp_avc444_budget_renewed(struct rdp_avc444_budget *budget, int64_t now_ms);

#endif
