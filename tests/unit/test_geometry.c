/* SPDX-License-Identifier: MIT */
/* Window placement and layer-shell arithmetic. */
#include <stdio.h>
#include <stdlib.h>
#include "compositor/layer_geometry.h"
#include "compositor/placement.h"

static int failures;

#define CHECK_BOX(what, box, ex, ey, ew, eh) do { \
	struct placement_box b_ = (box); \
	if (b_.x != (ex) || b_.y != (ey) || b_.width != (ew) || b_.height != (eh)) { \
		fprintf(stderr, "%s: got %d,%d %dx%d, want %d,%d %dx%d\n", what, \
			b_.x, b_.y, b_.width, b_.height, ex, ey, ew, eh); \
		failures++; \
	} \
} while (0)

static void test_new_window(void) {
	struct placement_box area = {0, 0, 1280, 720};
	/* Centered, with the title bar counted in the vertical centering. */
	CHECK_BOX("centered", placement_new_window(&area, 200, 100, 25, 1, NULL, 0),
		540, 322, 200, 100);
	/* Each later window cascades down and right. */
	CHECK_BOX("cascade 1", placement_new_window(&area, 200, 100, 25, 1, NULL, 1),
		572, 354, 200, 100);
	/* A requested position that fits is kept exactly. */
	struct placement_box req = {10, 40, 0, 0};
	CHECK_BOX("requested", placement_new_window(&area, 200, 100, 25, 1, &req, 0),
		10, 40, 200, 100);
	/* One that would hide the title bar is nudged just enough. */
	struct placement_box high = {10, 5, 0, 0};
	CHECK_BOX("nudged", placement_new_window(&area, 200, 100, 25, 1, &high, 0),
		10, 25, 200, 100);
	/* Off the right edge: pulled back inside. */
	struct placement_box off = {1200, 300, 0, 0};
	CHECK_BOX("off right", placement_new_window(&area, 200, 100, 25, 1, &off, 0),
		1079, 300, 200, 100);
	/* Larger than the area: the top-left corner stays visible. */
	CHECK_BOX("too big", placement_new_window(&area, 2000, 1000, 25, 1, NULL, 0),
		1, 25, 2000, 1000);
	/* A panel moved the area: placement follows it. */
	struct placement_box panel_area = {0, 40, 1280, 680};
	CHECK_BOX("below panel", placement_new_window(&panel_area, 1280, 680, 0, 0, NULL, 0),
		0, 40, 1280, 680);
}

static void test_center_over(void) {
	struct placement_box area = {0, 0, 1280, 720};
	struct placement_box parent = {100, 100, 400, 300};
	CHECK_BOX("dialog", placement_center_over(&area, &parent, 200, 100, 25, 1),
		200, 200, 200, 100);
	struct placement_box corner = {0, 0, 100, 100};
	CHECK_BOX("dialog kept inside", placement_center_over(&area, &corner, 300, 200, 25, 1),
		1, 25, 300, 200);
}

static void test_layers(void) {
	struct placement_box full = {0, 0, 1280, 720};
	struct placement_box usable = full;
	struct layer_request panel = {
		.anchor = LAYER_ANCHOR_TOP | LAYER_ANCHOR_LEFT | LAYER_ANCHOR_RIGHT,
		.exclusive_zone = 40, .height = 40,
	};
	struct placement_box out;
	if (!layer_geometry_place(&full, &usable, &panel, &out)) {
		fprintf(stderr, "top panel refused\n");
		failures++;
	}
	CHECK_BOX("top panel", out, 0, 0, 1280, 40);
	CHECK_BOX("usable after top panel", usable, 0, 40, 1280, 680);

	struct layer_request dock = {
		.anchor = LAYER_ANCHOR_BOTTOM, .exclusive_zone = 60,
		.width = 400, .height = 60, .margin_bottom = 4,
	};
	layer_geometry_place(&full, &usable, &dock, &out);
	CHECK_BOX("centered dock", out, 440, 716 - 60, 400, 60);
	CHECK_BOX("usable after dock", usable, 0, 40, 1280, 680 - 64);

	/* exclusive_zone -1 ignores what others reserved. */
	struct layer_request wallpaper = {
		.anchor = 15, .exclusive_zone = -1,
	};
	layer_geometry_place(&full, &usable, &wallpaper, &out);
	CHECK_BOX("wallpaper", out, 0, 0, 1280, 720);

	/* Zero width without both horizontal anchors is a client error. */
	struct layer_request bad = {.anchor = LAYER_ANCHOR_LEFT, .height = 10};
	if (layer_geometry_place(&full, &usable, &bad, &out)) {
		fprintf(stderr, "zero width with one anchor was accepted\n");
		failures++;
	}
}

static void test_maximize(void) {
	struct placement_box area = {0, 30, 1024, 738};
	struct placement_box free = {100, 200, 300, 150};
	CHECK_BOX("neither", placement_maximize(&area, &free, 0, 25, 1),
		100, 200, 300, 150);
	CHECK_BOX("vert", placement_maximize(&area, &free, PLACEMENT_AXIS_VERT, 25, 1),
		100, 55, 300, 712);
	CHECK_BOX("horz", placement_maximize(&area, &free, PLACEMENT_AXIS_HORZ, 25, 1),
		1, 200, 1022, 150);
	CHECK_BOX("both", placement_maximize(&area, &free, PLACEMENT_AXES_BOTH, 25, 1),
		1, 55, 1022, 712);
	CHECK_BOX("undecorated", placement_maximize(&area, &free, PLACEMENT_AXES_BOTH, 0, 0),
		0, 30, 1024, 738);
}

int main(void) {
	test_new_window();
	test_maximize();
	test_center_over();
	test_layers();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}
