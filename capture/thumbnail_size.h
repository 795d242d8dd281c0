/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_THUMBNAIL_SIZE_H
#define ORIEL_CAPTURE_THUMBNAIL_SIZE_H

/* The size of a thumbnail. Pure: tests/unit/test_thumbnail_size.c links it. */

#include <stdbool.h>

/*
 * A picture of width x height scaled down (never up) to fit inside
 * max_width x max_height with its aspect kept, rounded, at least 1x1.
 * False when either size is empty.
 */
bool thumbnail_size(int width, int height, int max_width, int max_height,
	int *out_width, int *out_height);

#endif
