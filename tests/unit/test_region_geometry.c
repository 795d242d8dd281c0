/* SPDX-License-Identifier: MIT */
/* The region selector's rectangle (compositor/region_geometry.c). */
#include <math.h>
#include <stdio.h>
#include "compositor/region_geometry.h"

static int failures;

#define CHECK_BOX(got, ex, ey, ew, eh) do { \
	struct placement_box b_ = (got); \
	if (b_.x != (ex) || b_.y != (ey) || b_.width != (ew) || b_.height != (eh)) { \
		fprintf(stderr, "%s:%d: got %d,%d %dx%d, want %d,%d %dx%d\n", __FILE__, \
			__LINE__, b_.x, b_.y, b_.width, b_.height, (ex), (ey), (ew), (eh)); \
		failures++; \
	} \
} while (0)

#define CHECK(cond, msg) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, (msg)); \
		failures++; \
	} \
} while (0)

int main(void) {
	struct placement_box layout = { 0, 0, 640, 480 };
	/* Any direction gives the same box. */
	CHECK_BOX(region_geometry_box(100, 80, 300, 230, &layout), 100, 80, 200, 150);
	CHECK_BOX(region_geometry_box(300, 230, 100, 80, &layout), 100, 80, 200, 150);
	CHECK_BOX(region_geometry_box(300, 80, 100, 230, &layout), 100, 80, 200, 150);
	CHECK_BOX(region_geometry_box(100, 230, 300, 80, &layout), 100, 80, 200, 150);
	/* Fractions: the pixels the points are in. */
	CHECK_BOX(region_geometry_box(10.7, 20.2, 30.9, 40.5, &layout), 10, 20, 20, 20);
	/* A click, or a drag along a line, covers nothing. */
	struct placement_box b = region_geometry_box(50, 50, 50, 50, &layout);
	CHECK(!region_geometry_nonempty(&b), "a click is not empty");
	b = region_geometry_box(50, 50, 90, 50.5, &layout);
	CHECK(!region_geometry_nonempty(&b), "a horizontal line is not empty");
	b = region_geometry_box(1, 2, 3, 4, &layout);
	CHECK(region_geometry_nonempty(&b), "a 2x2 box is empty");
	/* Cut to the layout, on every side. */
	CHECK_BOX(region_geometry_box(-50, -20, 100, 60, &layout), 0, 0, 100, 60);
	CHECK_BOX(region_geometry_box(600, 400, 900, 700, &layout), 600, 400, 40, 80);
	CHECK_BOX(region_geometry_box(-10, -10, 1000, 1000, &layout), 0, 0, 640, 480);
	/* Wholly outside: empty. */
	b = region_geometry_box(700, 10, 800, 100, &layout);
	CHECK(!region_geometry_nonempty(&b), "a box right of the layout is not empty");
	b = region_geometry_box(-80, -80, -10, -10, &layout);
	CHECK(!region_geometry_nonempty(&b), "a box above-left of the layout is not empty");
	/* A layout that does not start at 0,0. */
	struct placement_box off = { -1280, 100, 1280, 720 };
	CHECK_BOX(region_geometry_box(-1300, 50, -1200, 150, &off), -1280, 100, 80, 50);
	CHECK_BOX(region_geometry_box(-10, 700, 20, 900, &off), -10, 700, 10, 120);
	/* No layout, or no numbers: empty. */
	struct placement_box none = { 0, 0, 0, 0 };
	b = region_geometry_box(1, 1, 50, 50, &none);
	CHECK(!region_geometry_nonempty(&b), "a box in an empty layout is not empty");
	b = region_geometry_box(NAN, 1, 50, 50, &layout);
	CHECK(!region_geometry_nonempty(&b), "a NaN box is not empty");
	/* Huge coordinates do not overflow. */
	CHECK_BOX(region_geometry_box(-1e12, -1e12, 1e12, 1e12, &layout), 0, 0, 640, 480);
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	return 0;
}
