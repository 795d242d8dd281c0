/* SPDX-License-Identifier: MIT */
/*
 * The colour of the first pixel of a PNG held in memory, for PickColor
 * (oriel's Screenshot.Region of one pixel). Pure code over libpng, linked
 * by tests/unit/test_portal_png.c.
 */
#ifndef ORIEL_PORTAL_PNG_PIXEL_H
#define ORIEL_PORTAL_PNG_PIXEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* False for data that is not a small PNG (a pick reads one pixel). */
bool portal_png_first_pixel(const void *data, size_t size, uint8_t rgb[3]);

#endif
