/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_OUTPUT_RELEASE_H
#define ORIEL_OUTPUT_RELEASE_H

/*
 * A quiet headless output gives its render buffers back (output_release.c):
 * after OUTPUT_RELEASE_MS without a new frame, the next frame is rendered
 * whole into a new buffer.
 */

#define OUTPUT_RELEASE_MS 10000

struct output;
struct output_release;

/* NULL for outputs that keep their buffers (not headless). */
struct output_release *output_release_create(struct output *output);
/* NULL is a no-op. */
void output_release_destroy(struct output_release *release);

#endif
