/* SPDX-License-Identifier: MIT */
/* The region selector's rectangle (region_geometry.h). */
#include <math.h>
#include "compositor/region_geometry.h"

/* v clamped into [lo, hi]. */
static double clamp(double v, double lo, double hi) {
	return v < lo ? lo : v > hi ? hi : v;
}

struct placement_box region_geometry_box(double x0, double y0, double x1, double y1,
		const struct placement_box *layout) {
	struct placement_box box = { layout->x, layout->y, 0, 0 };
	if (layout->width <= 0 || layout->height <= 0 || isnan(x0) || isnan(y0) ||
			isnan(x1) || isnan(y1)) {
		return box;
	}
	double right = (double)layout->x + layout->width;
	double bottom = (double)layout->y + layout->height;
	double left_x = clamp(floor(fmin(x0, x1)), layout->x, right);
	double right_x = clamp(floor(fmax(x0, x1)), layout->x, right);
	double top_y = clamp(floor(fmin(y0, y1)), layout->y, bottom);
	double bottom_y = clamp(floor(fmax(y0, y1)), layout->y, bottom);
	box.x = (int)left_x;
	box.y = (int)top_y;
	box.width = (int)(right_x - left_x);
	box.height = (int)(bottom_y - top_y);
	return box;
}

bool region_geometry_nonempty(const struct placement_box *box) {
	return box->width > 0 && box->height > 0;
}
