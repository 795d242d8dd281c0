/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_FRAME_PACER_H
#define ORIEL_FRAME_PACER_H

/*
 * When a headless output may present its next frame. There is no vblank,
 * so instead of a fixed 60 Hz phase the output presents as soon as
 * something changed, as long as it keeps to its refresh rate on average:
 * a token bucket that holds up to FRAME_PACER_BURST periods of credit.
 * A client drawing at the refresh rate is then shown the moment it
 * commits, whatever its phase, instead of up to a period later; a client
 * drawing faster is held to the refresh rate.
 *
 * Credit comes back a little faster than the refresh rate (1/CATCH_UP
 * more). Without that, a client drawing at exactly the refresh rate that
 * was once held back (by a burst at its start, or by a second surface
 * presenting in the same period) would stay held back by the same lag for
 * good: each present would earn just what it spends. With it the lag is
 * gone within CATCH_UP frames, and a greedy client gets at most 1/CATCH_UP
 * more frames than the refresh rate.
 *
 * Pure: no wlroots, so unit tests link it directly.
 */

#include <stdint.h>

#define FRAME_PACER_BURST 2
#define FRAME_PACER_CATCH_UP 16

struct frame_pacer {
	int64_t period_us;
	int64_t credit_us;
	int64_t last_us; /* the last present, or INT64_MIN before the first */
};

void frame_pacer_init(struct frame_pacer *pacer, int64_t period_us);
/* A frame was presented at now_us: how many µs until the next may be (0: now). */
int64_t frame_pacer_presented(struct frame_pacer *pacer, int64_t now_us);

#endif
