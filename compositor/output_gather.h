/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_OUTPUT_GATHER_H
#define ORIEL_OUTPUT_GATHER_H

/*
 * A headless output draws a change OUTPUT_GATHER_MS after it starts, so
 * that the parts of one change are shown in one frame (output_gather.c).
 */

#include <stdbool.h>

#define OUTPUT_GATHER_MS 1

struct output;
struct output_gather;

/* NULL for outputs that a vblank paces (not headless). */
struct output_gather *output_gather_create(struct output *output);
/* NULL is a no-op. */
void output_gather_destroy(struct output_gather *gather);
/*
 * At a frame event that has something to draw: whether to draw it now
 * (always, for NULL). When not, a frame is scheduled again once the rest of
 * the change has had its moment.
 */
bool output_gather_ready(struct output_gather *gather);

#endif
