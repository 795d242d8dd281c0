/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_LAYER_GEOMETRY_H
#define ORIEL_LAYER_GEOMETRY_H

/* Layer-shell placement arithmetic. Pure: unit tests link it directly. */

#include <stdbool.h>
#include <stdint.h>
#include "compositor/placement.h"

enum layer_anchor {
	LAYER_ANCHOR_TOP = 1,
	LAYER_ANCHOR_BOTTOM = 2,
	LAYER_ANCHOR_LEFT = 4,
	LAYER_ANCHOR_RIGHT = 8,
};

struct layer_request {
	uint32_t anchor;
	int32_t exclusive_zone;
	int32_t margin_top, margin_right, margin_bottom, margin_left;
	uint32_t width, height; /* 0: stretch between opposite anchors */
};

/*
 * Places one surface. full is the output box; usable shrinks by the
 * surface's exclusive zone when it has one and is anchored to one edge.
 * Returns false when the request cannot be satisfied (zero size without
 * both opposite anchors).
 */
bool layer_geometry_place(const struct placement_box *full, struct placement_box *usable,
	const struct layer_request *request, struct placement_box *out);

#endif
