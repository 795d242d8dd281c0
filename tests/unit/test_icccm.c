/* ICCCM WM_NORMAL_HINTS size constraints and win_gravity placement. */
#include <stdio.h>
#include <stdlib.h>
#include "compositor/placement.h"
#include "xwm/icccm_hints.h"

static int failures;

#define CHECK_SIZE(what, hints, w, h, ew, eh) do { \
	int w_ = (w), h_ = (h); \
	icccm_constrain_size((hints), &w_, &h_); \
	if (w_ != (ew) || h_ != (eh)) { \
		fprintf(stderr, "%s: %dx%d became %dx%d, want %dx%d\n", what, \
			(w), (h), w_, h_, ew, eh); \
		failures++; \
	} \
} while (0)

#define CHECK_POS(what, gravity, w, h, border, top, side, x, y, ex, ey) do { \
	int x_ = (x), y_ = (y); \
	placement_apply_gravity((gravity), (w), (h), (border), (top), (side), &x_, &y_); \
	if (x_ != (ex) || y_ != (ey)) { \
		fprintf(stderr, "%s: %d,%d became %d,%d, want %d,%d\n", what, \
			(x), (y), x_, y_, ex, ey); \
		failures++; \
	} \
} while (0)

static void test_no_hints(void) {
	CHECK_SIZE("no hints", NULL, 300, 200, 300, 200);
	CHECK_SIZE("no hints, zero", NULL, 0, -5, 1, 1);
	struct icccm_size_hints none = {0};
	CHECK_SIZE("no flags", &none, 301, 199, 301, 199);
}

static void test_min_max(void) {
	struct icccm_size_hints h = {
		.flags = ICCCM_P_MIN_SIZE | ICCCM_P_MAX_SIZE,
		.min_width = 100, .min_height = 50, .max_width = 400, .max_height = 300,
	};
	CHECK_SIZE("inside", &h, 200, 100, 200, 100);
	CHECK_SIZE("below min", &h, 10, 10, 100, 50);
	CHECK_SIZE("above max", &h, 1000, 1000, 400, 300);
	/* A max below the min is nonsense: the min wins. */
	struct icccm_size_hints bad = {
		.flags = ICCCM_P_MIN_SIZE | ICCCM_P_MAX_SIZE,
		.min_width = 100, .min_height = 100, .max_width = 10, .max_height = 10,
	};
	CHECK_SIZE("max < min", &bad, 500, 500, 100, 100);
	/* wlroots stores -1 for an absent max; the flag says so too. */
	struct icccm_size_hints neg = {
		.flags = ICCCM_P_MAX_SIZE, .max_width = -1, .max_height = -1,
	};
	CHECK_SIZE("negative max ignored", &neg, 500, 400, 500, 400);
}

static void test_increments(void) {
	/* xterm-like: 6x13 cells, 4 pixels of border around them. */
	struct icccm_size_hints h = {
		.flags = ICCCM_P_RESIZE_INC | ICCCM_P_BASE_SIZE | ICCCM_P_MIN_SIZE,
		.width_inc = 6, .height_inc = 13, .base_width = 4, .base_height = 4,
		.min_width = 10, .min_height = 17,
	};
	CHECK_SIZE("on the grid", &h, 4 + 6 * 80, 4 + 13 * 24, 484, 316);
	CHECK_SIZE("snaps down", &h, 4 + 6 * 80 + 5, 4 + 13 * 24 + 12, 484, 316);
	CHECK_SIZE("at least min", &h, 1, 1, 10, 17);
	/* Without a base size, the min size is the base (ICCCM). */
	struct icccm_size_hints min_only = {
		.flags = ICCCM_P_RESIZE_INC | ICCCM_P_MIN_SIZE,
		.width_inc = 10, .height_inc = 10, .min_width = 15, .min_height = 15,
	};
	CHECK_SIZE("min as base", &min_only, 59, 44, 55, 35);
	/* Zero or negative increments are ignored. */
	struct icccm_size_hints zero = {
		.flags = ICCCM_P_RESIZE_INC, .width_inc = 0, .height_inc = -3,
	};
	CHECK_SIZE("zero inc", &zero, 123, 45, 123, 45);
	/* Increments with a max: the result stays on the grid under the max. */
	struct icccm_size_hints maxed = {
		.flags = ICCCM_P_RESIZE_INC | ICCCM_P_BASE_SIZE | ICCCM_P_MAX_SIZE,
		.width_inc = 10, .height_inc = 10, .base_width = 5, .base_height = 5,
		.max_width = 100, .max_height = 100,
	};
	CHECK_SIZE("inc under max", &maxed, 1000, 1000, 95, 95);
}

static void test_aspect(void) {
	/* Exactly 2:1. */
	struct icccm_size_hints h = {
		.flags = ICCCM_P_ASPECT,
		.min_aspect_num = 2, .min_aspect_den = 1,
		.max_aspect_num = 2, .max_aspect_den = 1,
	};
	CHECK_SIZE("aspect ok", &h, 400, 200, 400, 200);
	CHECK_SIZE("too tall", &h, 400, 300, 400, 200);
	CHECK_SIZE("too wide", &h, 600, 200, 400, 200);
	/* A zero denominator drops that bound; the other one still holds. */
	struct icccm_size_hints bad = {
		.flags = ICCCM_P_ASPECT,
		.min_aspect_num = 1, .min_aspect_den = 0,
		.max_aspect_num = 2, .max_aspect_den = 1,
	};
	CHECK_SIZE("bad min aspect", &bad, 400, 300, 400, 300);
	CHECK_SIZE("max aspect alone", &bad, 700, 300, 600, 300);
	struct icccm_size_hints both_bad = {
		.flags = ICCCM_P_ASPECT,
		.min_aspect_num = 0, .min_aspect_den = 0,
		.max_aspect_num = -1, .max_aspect_den = 0,
	};
	CHECK_SIZE("no valid aspect", &both_bad, 700, 300, 700, 300);
	/* With a base size the aspect applies to size - base. */
	struct icccm_size_hints based = {
		.flags = ICCCM_P_ASPECT | ICCCM_P_BASE_SIZE,
		.base_width = 10, .base_height = 10,
		.min_aspect_num = 1, .min_aspect_den = 1,
		.max_aspect_num = 1, .max_aspect_den = 1,
	};
	CHECK_SIZE("aspect minus base", &based, 110, 210, 110, 110);
}

static void test_gravity(void) {
	/* A 200x100 content, 24 px title, 1 px border: frame 202x125. */
	CHECK_POS("north-west", PLACEMENT_GRAVITY_NORTH_WEST, 200, 100, 0, 24, 1,
		50, 60, 51, 84);
	CHECK_POS("static", PLACEMENT_GRAVITY_STATIC, 200, 100, 0, 24, 1, 50, 60, 50, 60);
	/* The window's top-right corner (700, 60) is the frame's. */
	CHECK_POS("north-east", PLACEMENT_GRAVITY_NORTH_EAST, 200, 100, 0, 24, 1,
		500, 60, 700 - 202 + 1, 60 + 24);
	/* The window's bottom-right corner (1000, 700) is the frame's. */
	CHECK_POS("south-east", PLACEMENT_GRAVITY_SOUTH_EAST, 200, 100, 0, 24, 1,
		800, 600, 1000 - 202 + 1, 700 - 125 + 24);
	/* The window's center (500, 350) is the frame's (101, 62 in it). */
	CHECK_POS("center", PLACEMENT_GRAVITY_CENTER, 200, 100, 0, 24, 1,
		400, 300, 500 - 101 + 1, 350 - 62 + 24);
	/* Xt's -0-0 with a 1 px X border: the window's outer corner is (1024, 768). */
	CHECK_POS("south-east, X border", PLACEMENT_GRAVITY_SOUTH_EAST, 200, 100, 1, 24, 1,
		822, 666, 1024 - 202 + 1, 768 - 125 + 24);
	/* Static keeps the content where it was, inside the X border. */
	CHECK_POS("static, X border", PLACEMENT_GRAVITY_STATIC, 200, 100, 2, 24, 1,
		50, 60, 52, 62);
	/* Undecorated: north-west is the content's own corner. */
	CHECK_POS("undecorated", PLACEMENT_GRAVITY_NORTH_WEST, 200, 100, 0, 0, 0,
		50, 60, 50, 60);
}

int main(void) {
	test_no_hints();
	test_min_max();
	test_increments();
	test_aspect();
	test_gravity();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}
