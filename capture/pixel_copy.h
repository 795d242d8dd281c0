#ifndef ORIEL_CAPTURE_PIXEL_COPY_H
#define ORIEL_CAPTURE_PIXEL_COPY_H

/* Copying 32-bit pixel rows between sinks' formats. Pure: no wlroots. */

#include <stdbool.h>
#include <stdint.h>

/* Copies width pixels; swap_rb exchanges red and blue (xRGB <-> xBGR). */
void pixel_copy_row(uint8_t *dst, const uint8_t *src, int width, bool swap_rb);

#endif
