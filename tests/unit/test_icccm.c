/* SPDX-License-Identifier: MIT */
/*
 * ICCCM WM_NORMAL_HINTS size constraints and win_gravity placement; WM_HINTS,
 * window type policy, struts, _NET_MOVERESIZE_WINDOW, focus-stealing
 * prevention and _NET_WM_STATE request decoding.
 */
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

#define CHECK(what, cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s: %s is false\n", what, #cond); \
		failures++; \
	} \
} while (0)

static void test_wm_hints(void) {
	CHECK("iconic", icccm_hints_start_iconic(ICCCM_HINT_STATE, ICCCM_STATE_ICONIC));
	CHECK("normal", !icccm_hints_start_iconic(ICCCM_HINT_STATE, ICCCM_STATE_NORMAL));
	/* initial_state without StateHint is garbage. */
	CHECK("no flag", !icccm_hints_start_iconic(0, ICCCM_STATE_ICONIC));
	CHECK("urgent", icccm_hints_urgent(ICCCM_HINT_URGENCY | ICCCM_HINT_INPUT));
	CHECK("not urgent", !icccm_hints_urgent(ICCCM_HINT_INPUT | ICCCM_HINT_STATE));
}

static void test_type_policy(void) {
	struct ewmh_type_policy p;
	ewmh_window_type_policy(EWMH_TYPE_NORMAL, &p);
	CHECK("normal", p.decorated && p.focus_on_map && p.placement == EWMH_PLACE_DEFAULT);
	ewmh_window_type_policy(EWMH_TYPE_DIALOG, &p);
	CHECK("dialog", p.decorated && p.placement == EWMH_PLACE_CENTER);
	ewmh_window_type_policy(EWMH_TYPE_UTILITY, &p);
	CHECK("utility", p.decorated && p.placement == EWMH_PLACE_CENTER);
	ewmh_window_type_policy(EWMH_TYPE_SPLASH, &p);
	CHECK("splash", !p.decorated && p.placement == EWMH_PLACE_CENTER);
	ewmh_window_type_policy(EWMH_TYPE_NOTIFICATION, &p);
	CHECK("notification", !p.decorated && !p.focus_on_map &&
		p.placement == EWMH_PLACE_CORNER);
	ewmh_window_type_policy(EWMH_TYPE_DOCK, &p);
	CHECK("dock", !p.decorated && !p.focus_on_map &&
		p.placement == EWMH_PLACE_AS_REQUESTED && p.layer == EWMH_LAYER_ABOVE);
	ewmh_window_type_policy(EWMH_TYPE_DESKTOP, &p);
	CHECK("desktop", !p.decorated && !p.focus_on_map &&
		p.placement == EWMH_PLACE_AS_REQUESTED && p.layer == EWMH_LAYER_BELOW);
	ewmh_window_type_policy(EWMH_TYPE_TOOLBAR, &p);
	CHECK("toolbar", p.decorated && p.layer == EWMH_LAYER_NORMAL);
	enum ewmh_window_type plain[] = {EWMH_TYPE_MENU, EWMH_TYPE_TOOLTIP, EWMH_TYPE_COMBO};
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		ewmh_window_type_policy(plain[i], &p);
		CHECK("menu/tooltip/combo", !p.decorated &&
			p.placement == EWMH_PLACE_AS_REQUESTED);
	}
}

static void test_strut_decode(void) {
	struct ewmh_strut st;
	uint32_t plain[4] = {0, 0, 30, 0};
	CHECK("plain", ewmh_decode_strut(plain, 4, 1024, 768, &st));
	CHECK("plain spans the edge", st.top == 30 && st.top_start_x == 0 &&
		st.top_end_x == 1023);
	uint32_t partial[12] = {0, 40, 0, 0, 0, 0, 100, 199, 0, 0, 0, 0};
	CHECK("partial", ewmh_decode_strut(partial, 12, 1024, 768, &st));
	CHECK("partial right", st.right == 40 && st.right_start_y == 100 &&
		st.right_end_y == 199);
	CHECK("too short", !ewmh_decode_strut(plain, 3, 1024, 768, &st));
	CHECK("null", !ewmh_decode_strut(NULL, 12, 1024, 768, &st));
	/* Hostile sizes are clamped to the root window. */
	uint32_t huge[4] = {0xffffffffu, 0, 0x80000000u, 0};
	CHECK("huge", ewmh_decode_strut(huge, 4, 1024, 768, &st));
	CHECK("huge clamped", st.left == 1024 && st.top == 768);
	/* A reversed range reserves nothing. */
	uint32_t reversed[12] = {0, 0, 30, 0, 0, 0, 0, 0, 500, 100, 0, 0};
	CHECK("reversed", ewmh_decode_strut(reversed, 12, 1024, 768, &st) && st.top == 0);
}

static void test_strut_apply(void) {
	struct placement_box root = {0, 0, 2048, 768};
	struct placement_box left = {0, 0, 1024, 768}, right = {1024, 0, 1024, 768};
	/* A top panel on the left output only. */
	struct placement_strut top = {.top = 30, .top_start_x = 0, .top_end_x = 1023};
	struct placement_box usable = left;
	placement_apply_strut(&root, &left, &top, &usable);
	CHECK("top strut on its output", usable.y == 30 && usable.height == 738 &&
		usable.x == 0 && usable.width == 1024);
	usable = right;
	placement_apply_strut(&root, &right, &top, &usable);
	CHECK("top strut not on the other output", usable.y == 0 && usable.height == 768);
	/* A right dock at the layout's right edge: only the right output. */
	struct placement_strut dock = {.right = 64, .right_start_y = 0, .right_end_y = 767};
	usable = right;
	placement_apply_strut(&root, &right, &dock, &usable);
	CHECK("right dock", usable.x == 1024 && usable.width == 1024 - 64);
	usable = left;
	placement_apply_strut(&root, &left, &dock, &usable);
	CHECK("right dock elsewhere", usable.width == 1024);
	/* Combined with a layer-shell zone already taken: the larger wins. */
	usable = (struct placement_box){0, 40, 1024, 728};
	placement_apply_strut(&root, &left, &top, &usable);
	CHECK("strut within a panel", usable.y == 40 && usable.height == 728);
	/* A strut that would leave nothing is ignored. */
	struct placement_strut all = {.left = 2048, .left_start_y = 0, .left_end_y = 767};
	usable = left;
	placement_apply_strut(&root, &left, &all, &usable);
	CHECK("everything reserved", usable.width == 1024);
}

static void test_corner(void) {
	struct placement_box area = {0, 30, 1024, 738};
	struct placement_box b = placement_corner(&area, 200, 80, 0, 0);
	CHECK("corner undecorated", b.x == 824 && b.y == 30);
	b = placement_corner(&area, 200, 80, 25, 1);
	CHECK("corner decorated", b.x == 823 && b.y == 55);
}

static void test_moveresize(void) {
	struct ewmh_moveresize m;
	uint32_t all[5] = {0xf01, 100, (uint32_t)-20, 320, 180};
	ewmh_decode_moveresize_window(all, &m);
	CHECK("all fields", m.gravity == 1 && m.has_x && m.has_y && m.has_width &&
		m.has_height && m.x == 100 && m.y == -20 && m.width == 320 && m.height == 180);
	uint32_t width_only[5] = {0x400, 0, 0, 250, 0};
	ewmh_decode_moveresize_window(width_only, &m);
	CHECK("width only", m.gravity == 0 && !m.has_x && !m.has_y && m.has_width &&
		!m.has_height);
	uint32_t bad[5] = {0xc2a, 0, 0, 0, (uint32_t)-5};
	ewmh_decode_moveresize_window(bad, &m);
	CHECK("bad gravity and sizes", m.gravity == 0 && !m.has_width && !m.has_height);
}

static void test_activation(void) {
	CHECK("pager", ewmh_activation_allowed(2, 0, true, true, 1000));
	CHECK("nothing focused", ewmh_activation_allowed(1, 0, false, false, 0));
	CHECK("no timestamp", !ewmh_activation_allowed(1, 0, true, true, 1000));
	CHECK("older", !ewmh_activation_allowed(1, 999, true, true, 1000));
	CHECK("same", ewmh_activation_allowed(1, 1000, true, true, 1000));
	CHECK("newer", ewmh_activation_allowed(1, 1001, true, true, 1000));
	CHECK("focused has no time", ewmh_activation_allowed(1, 5, true, false, 0));
	/* X time wraps around after 49.7 days. */
	CHECK("newer across wrap", ewmh_activation_allowed(1, 10, true, true, 0xfffffff0u));
	CHECK("older across wrap", !ewmh_activation_allowed(1, 0xfffffff0u, true, true, 10));
	CHECK("old-style source 0, old time", !ewmh_activation_allowed(0, 5, true, true, 1000));
	CHECK("old-style source 0, no time (wmctrl -a)",
		ewmh_activation_allowed(0, 0, true, true, 1000));
}

static void test_state_update(void) {
	const uint32_t above = EWMH_STATE_ABOVE, below = EWMH_STATE_BELOW;
	const uint32_t sticky = EWMH_STATE_STICKY;
	CHECK("add", ewmh_state_update(0, 1, sticky) == sticky);
	CHECK("remove", ewmh_state_update(sticky | above, 0, sticky) == above);
	CHECK("toggle on", ewmh_state_update(above, 2, sticky) == (above | sticky));
	CHECK("toggle off", ewmh_state_update(above | sticky, 2, sticky) == above);
	CHECK("above ends below", ewmh_state_update(below | sticky, 1, above) ==
		(above | sticky));
	CHECK("below ends above", ewmh_state_update(above, 2, below) == below);
	CHECK("unknown action", ewmh_state_update(sticky, 3, above) == sticky);
}

static void test_client_machine(void) {
	static const struct {
		const char *machine;
		size_t len;
		const char *host;
		bool local;
	} cases[] = {
		{"vm", 2, "vm", true},
		{"vm\0", 3, "vm", true},
		{"vm.example.org", 14, "vm", true},
		{"vm", 2, "vm.example.org", true},
		{"vm.example.org", 14, "vm.example.org", true},
		{"vm.example.org", 14, "vm.other.org", false},
		{"vm2", 3, "vm", false},
		{"v", 1, "vm", false},
		{"elsewhere.invalid", 17, "vm", false},
		{"", 0, "vm", false},
		{"vm\0x", 4, "vm", false},
		{".", 1, ".", true},
		{".x", 2, "y", false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool got = icccm_client_machine_is_local(cases[i].machine, cases[i].len,
			cases[i].host);
		if (got != cases[i].local) {
			fprintf(stderr, "WM_CLIENT_MACHINE case %zu (%s vs %s): %d\n", i,
				cases[i].machine, cases[i].host, got);
			failures++;
		}
	}
}

int main(void) {
	test_client_machine();
	test_wm_hints();
	test_type_policy();
	test_strut_decode();
	test_strut_apply();
	test_corner();
	test_moveresize();
	test_activation();
	test_state_update();
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
