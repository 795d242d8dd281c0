/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_OUTPUT_GATHER_H
#define ORIEL_OUTPUT_GATHER_H

/*
 * A headless output waits OUTPUT_GATHER_MS for the rest of a change that
 * is known to come in parts, so that they are shown in one frame
 * (output_gather.c).
 */

#include <stdbool.h>

#define OUTPUT_GATHER_MS 1

struct output;
struct output_gather;
struct server;

/* NULL for outputs that a vblank paces (not headless). */
struct output_gather *output_gather_create(struct output *output);
/* NULL is a no-op. */
void output_gather_destroy(struct output_gather *gather);
/*
 * Something moved whose new contents are on their way: an X window that
 * its client moved, which Xwayland redraws next. The next frame of every
 * headless output waits for them.
 */
void output_gather_expect(struct server *server);
/*
 * At a frame event that has something to draw: whether to draw it now
 * (always, for NULL, and when nothing is expected). When not, a frame is
 * scheduled again once the rest has had its moment.
 */
bool output_gather_ready(struct output_gather *gather);

#endif
