/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REGION_GEOMETRY_H
#define ORIEL_REGION_GEOMETRY_H

/*
 * The rectangle a person drags with the region selector
 * (region_select.c). Pure: tests/unit/test_region_geometry.c links it.
 */

#include <stdbool.h>
#include "compositor/placement.h"

/*
 * The box between the point where the button went down (x0, y0) and the
 * pointer now (x1, y1), in layout coordinates, whichever way the drag
 * went: from the smaller corner's pixel up to, not including, the larger
 * one's. Cut to layout (the bounding box of the outputs); empty (width or
 * height 0) when the drag covers no pixel of it.
 */
struct placement_box region_geometry_box(double x0, double y0, double x1, double y1,
	const struct placement_box *layout);

/* Whether box covers at least one pixel. */
bool region_geometry_nonempty(const struct placement_box *box);

#endif
