/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_CHROMA_SHARE_H
#define ORIEL_REMOTE_RDP_RDP_CHROMA_SHARE_H

#include <stdbool.h>

/*
 * Which AVC444v2 frames carry their chroma picture. A frame's two pictures
 * should encode within the time of one frame of a 60 Hz output: the encoder
 * then keeps up with the desktop, and the client, which decodes both, is
 * not drowned. When they do not, the luma
 * picture still goes in every frame (the client shows it with 4:2:0
 * colour, as AVC420) and the chroma picture in the share of frames that
 * fits, never fewer than one in RDP_CHROMA_MIN_EVERY: colour keeps
 * catching up, and its cost keeps being measured. What stops moving is
 * refined to lossless anyway.
 */

/* The frame rate that a frame's pictures must keep up with. */
#define RDP_CHROMA_BUDGET_MS (1000.0 / 60)
#define RDP_CHROMA_MIN_EVERY 8

struct rdp_chroma_share {
	double budget_ms;          /* RDP_CHROMA_BUDGET_MS, or the environment's */
	double luma_ms, chroma_ms; /* moving means of a picture's encoding time */
	double credit;             /* frames' worth of chroma owed */
	unsigned without;          /* frames sent without chroma since the last with */
};

/*
 * budget_ms < 0: RDP_CHROMA_BUDGET_MS, unless ORIEL_RDP_CHROMA_BUDGET_MS
 * in the environment says otherwise (0: chroma in the fewest frames).
 */
void rdp_chroma_share_init(struct rdp_chroma_share *share, double budget_ms);
/* A picture took ms to encode (wall clock: a busy machine counts). */
void rdp_chroma_share_encoded(struct rdp_chroma_share *share, bool chroma, double ms);
/* Whether the next frame carries its chroma picture. */
bool rdp_chroma_share_next(struct rdp_chroma_share *share);

#endif
