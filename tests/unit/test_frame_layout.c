/* SPDX-License-Identifier: MIT */
/* The frame's buttons and hit testing (compositor/frame_layout.c). */
#include <string.h>
#include "compositor/decoration.h"
#include "compositor/frame_layout.h"
#include "expect.h"

static const int W = 300, H = 200;

static struct frame_hit hit(double x, double y) {
	return frame_hit_test(W, H, true, x, y);
}

static double mid_x(const struct frame_rect *r) {
	return r->x + r->width / 2.0;
}

static double mid_y(const struct frame_rect *r) {
	return r->y + r->height / 2.0;
}

static void test_buttons(void) {
	struct frame_rect close, max, min;
	EXPECT(frame_button_rect(W, FRAME_PART_CLOSE, &close), "close shown");
	EXPECT(frame_button_rect(W, FRAME_PART_MAXIMIZE, &max), "maximize shown");
	EXPECT(frame_button_rect(W, FRAME_PART_MINIMIZE, &min), "minimize shown");
	/* Right to left, inside the title bar, not overlapping. */
	EXPECT(close.x + close.width < W && close.x + close.width >= W - 2 * FRAME_BUTTON_GAP,
		"close at the right end: x %d", close.x);
	EXPECT(max.x + max.width <= close.x, "maximize left of close");
	EXPECT(min.x + min.width <= max.x, "minimize left of maximize");
	EXPECT(close.y >= -DECORATION_TITLE_HEIGHT && close.y + close.height <= 0,
		"buttons inside the title bar: y %d", close.y);
	EXPECT(frame_buttons_left(W) <= min.x, "title ends before the buttons: %d",
		frame_buttons_left(W));
	EXPECT(hit(mid_x(&close), mid_y(&close)).part == FRAME_PART_CLOSE, "close hit");
	EXPECT(hit(mid_x(&max), mid_y(&max)).part == FRAME_PART_MAXIMIZE, "maximize hit");
	EXPECT(hit(mid_x(&min), mid_y(&min)).part == FRAME_PART_MINIMIZE, "minimize hit");
	/* Between buttons is title bar. */
	EXPECT(hit(close.x - 1, mid_y(&close)).part == FRAME_PART_TITLE, "gap is title");
	/* Narrow windows keep what fits, close first. */
	EXPECT(frame_button_rect(32, FRAME_PART_CLOSE, &close), "close fits 32 px");
	EXPECT(!frame_button_rect(32, FRAME_PART_MINIMIZE, &min), "minimize left off");
	EXPECT(frame_buttons_left(32) >= 0, "buttons_left not negative");
	EXPECT(frame_buttons_left(5) == 5, "no buttons: title takes the bar");
}

static void test_parts(void) {
	EXPECT(hit(10, 10).part == FRAME_PART_CONTENT, "content");
	EXPECT(hit(W - 1, H - 1).part == FRAME_PART_CONTENT, "content's last pixel");
	EXPECT(hit(50, -10).part == FRAME_PART_TITLE, "title bar");
	EXPECT(hit(-30, 50).part == FRAME_PART_NONE, "far left is nothing");
	EXPECT(hit(50, H + FRAME_GRAB_MARGIN + 2).part == FRAME_PART_NONE, "below the margin");

	struct frame_hit h = hit(W, 100); /* the right border */
	EXPECT(h.part == FRAME_PART_EDGE && h.edges == FRAME_EDGE_RIGHT, "right border %u",
		h.edges);
	h = hit(W + FRAME_GRAB_MARGIN, 100); /* the margin's outer pixel */
	EXPECT(h.part == FRAME_PART_EDGE && h.edges == FRAME_EDGE_RIGHT, "right margin");
	h = hit(W + FRAME_GRAB_MARGIN + 1, 100);
	EXPECT(h.part == FRAME_PART_NONE, "past the right margin");
	h = hit(-3, 100);
	EXPECT(h.edges == FRAME_EDGE_LEFT, "left %u", h.edges);
	h = hit(150, H + 3);
	EXPECT(h.edges == FRAME_EDGE_BOTTOM, "bottom %u", h.edges);
	h = hit(150, -DECORATION_TITLE_HEIGHT - 3);
	EXPECT(h.edges == FRAME_EDGE_TOP, "top, above the title bar %u", h.edges);
	h = hit(W + 3, H + 3);
	EXPECT(h.edges == (FRAME_EDGE_BOTTOM | FRAME_EDGE_RIGHT), "corner %u", h.edges);
	/* Corners reach along the edges. */
	h = hit(W + 3, H - FRAME_CORNER + 3);
	EXPECT(h.edges == (FRAME_EDGE_BOTTOM | FRAME_EDGE_RIGHT), "corner along right %u",
		h.edges);
	h = hit(W - FRAME_CORNER + 3, H + 3);
	EXPECT(h.edges == (FRAME_EDGE_BOTTOM | FRAME_EDGE_RIGHT), "corner along bottom %u",
		h.edges);
	h = hit(-3, -DECORATION_TITLE_HEIGHT - 3);
	EXPECT(h.edges == (FRAME_EDGE_TOP | FRAME_EDGE_LEFT), "top-left %u", h.edges);
	h = hit(W + 3, -DECORATION_TITLE_HEIGHT);
	EXPECT(h.edges == (FRAME_EDGE_TOP | FRAME_EDGE_RIGHT), "top-right along right %u",
		h.edges);

	/* Maximized: no handles; the border is frame, the margin nothing. */
	h = frame_hit_test(W, H, false, W, 100);
	EXPECT(h.part == FRAME_PART_TITLE && h.edges == 0, "maximized border %d", h.part);
	h = frame_hit_test(W, H, false, W + 3, 100);
	EXPECT(h.part == FRAME_PART_NONE, "maximized margin %d", h.part);
}

static void test_cursors(void) {
	EXPECT(strcmp(frame_cursor_name(0), "left_ptr") == 0, "none");
	EXPECT(strcmp(frame_cursor_name(FRAME_EDGE_RIGHT), "right_side") == 0, "right");
	EXPECT(strcmp(frame_cursor_name(FRAME_EDGE_TOP), "top_side") == 0, "top");
	EXPECT(strcmp(frame_cursor_name(FRAME_EDGE_BOTTOM | FRAME_EDGE_LEFT),
		"bottom_left_corner") == 0, "bottom-left");
	EXPECT(strcmp(frame_cursor_name(FRAME_EDGE_BOTTOM | FRAME_EDGE_RIGHT),
		"bottom_right_corner") == 0, "bottom-right");
}

static void test_double_click(void) {
	struct frame_click last = { false, 0, 0, 0, 0 };
	EXPECT(!frame_click_is_double(&last, 1, 100, 10, 10), "no first click");
	last = (struct frame_click){ true, 1, 1000, 10, 10 };
	EXPECT(frame_click_is_double(&last, 1, 1300, 12, 9), "quick and near");
	EXPECT(frame_click_is_double(&last, 1, 1000 + FRAME_DOUBLE_CLICK_MSEC, 10, 10),
		"at the limit");
	EXPECT(!frame_click_is_double(&last, 1, 1000 + FRAME_DOUBLE_CLICK_MSEC + 1, 10, 10),
		"too slow");
	EXPECT(!frame_click_is_double(&last, 1, 1100, 30, 10), "too far");
	EXPECT(!frame_click_is_double(&last, 2, 1100, 10, 10), "another window");
	EXPECT(!frame_click_is_double(&last, 1, 900, 10, 10), "clock went back");
	last.time_msec = UINT32_MAX - 50; /* the millisecond clock wraps */
	EXPECT(frame_click_is_double(&last, 1, 100, 10, 10), "across the wrap");
}

static int count_lit(const uint32_t *pixels, int size) {
	int n = 0;
	for (int i = 0; i < size * size; i++) {
		n += pixels[i] != 0;
	}
	return n;
}

static void test_glyphs(void) {
	uint32_t a[FRAME_BUTTON_SIZE * FRAME_BUTTON_SIZE];
	uint32_t b[FRAME_BUTTON_SIZE * FRAME_BUTTON_SIZE];
	const int s = FRAME_BUTTON_SIZE, c = s / 2;
	frame_button_glyph(FRAME_PART_CLOSE, false, a, s);
	EXPECT(a[c * s + c] == 0xffffffff || a[(c - 1) * s + c - 1] == 0xffffffff,
		"the close cross goes through the middle");
	EXPECT(a[0] == 0 && a[s * s - 1] == 0, "corners transparent");
	frame_button_glyph(FRAME_PART_MAXIMIZE, false, a, s);
	EXPECT(a[c * s + c] == 0, "maximize is hollow");
	EXPECT(count_lit(a, s) > 20, "maximize drawn: %d", count_lit(a, s));
	frame_button_glyph(FRAME_PART_MAXIMIZE, true, b, s);
	EXPECT(memcmp(a, b, sizeof(a)) != 0, "restore differs from maximize");
	frame_button_glyph(FRAME_PART_MINIMIZE, false, a, s);
	EXPECT(a[c * s + c] == 0 && count_lit(a, s) > 10, "minimize is a bar low down");
}

int main(void) {
	test_buttons();
	test_parts();
	test_cursors();
	test_double_click();
	test_glyphs();
	return failures != 0;
}
