/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_STAGE_TIME_H
#define ORIEL_REMOTE_RDP_RDP_STAGE_TIME_H

#include <stdint.h>

/*
 * Where a frame's CPU time goes in the loop (bench/README.md's split,
 * where x264's own threads are measured with perf): with
 * ORIEL_RDP_STAGE_TIMES=1 in the environment, the CPU time of the thread
 * running each stage is gathered, and every 60 times a stage ran its
 * median and mean are logged. Thread CPU time, not wall time: other
 * processes on a busy machine do not count. Off, a stage costs a branch.
 */
enum rdp_stage {
	RDP_STAGE_COPY,    /* a capture's frame into the framebuffer */
	RDP_STAGE_CONVERT, /* RGB to the encoder's YUV pictures */
	RDP_STAGE_SEND,    /* the frame through FreeRDP and TLS to the socket */
	RDP_STAGE_COUNT,
};

/* The calling thread's CPU time (ns), or 0 when stage times are off. */
int64_t rdp_stage_begin(void);
/* One run of stage, since begin (rdp_stage_begin's); thread-safe. */
void rdp_stage_end(enum rdp_stage stage, int64_t begin);

#endif
