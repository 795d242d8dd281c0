/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_XWM_EWMH_ICON_H
#define ORIEL_XWM_EWMH_ICON_H

/*
 * _NET_WM_ICON decoding. Pure: no X or wlroots calls, so unit tests link
 * it directly.
 *
 * The property is a CARDINAL array of icons, each: width, height, then
 * width * height pixels, one per CARDINAL, as non-premultiplied ARGB with
 * alpha in the high byte.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Larger sides are taken for garbage (EWMH sets no limit; real icons are small). */
#define EWMH_ICON_MAX_SIDE 1024

struct ewmh_icon {
	uint32_t width, height;
	const uint32_t *pixels; /* into the property data, width * height */
};

/*
 * The icon that best fits a size x size square: the smallest one at least
 * that large, else the largest. Stops at the first malformed entry (a
 * zero or too large side, or fewer pixels than it claims) and uses what
 * came before it. False when there is no usable icon.
 */
bool ewmh_icon_choose(const uint32_t *data, size_t len, uint32_t size,
	struct ewmh_icon *out);

/*
 * Scales the icon into size x size premultiplied ARGB (cairo's ARGB32,
 * DRM_FORMAT_ARGB8888) by nearest neighbour, centred with its aspect kept;
 * the rest is transparent.
 */
void ewmh_icon_scale(const struct ewmh_icon *icon, uint32_t size, uint32_t *dst);

#endif
