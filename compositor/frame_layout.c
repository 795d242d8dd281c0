/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "compositor/decoration.h"
#include "compositor/frame_layout.h"

/* Right to left: close, maximize, minimize. */
static int button_index(enum frame_part part) {
	switch (part) {
	case FRAME_PART_CLOSE:
		return 0;
	case FRAME_PART_MAXIMIZE:
		return 1;
	case FRAME_PART_MINIMIZE:
		return 2;
	default:
		return -1;
	}
}

bool frame_button_rect(int content_width, enum frame_part part, struct frame_rect *rect) {
	int index = button_index(part);
	if (index < 0) {
		return false;
	}
	const int step = FRAME_BUTTON_SIZE + FRAME_BUTTON_GAP;
	rect->x = content_width - (index + 1) * step;
	rect->y = -DECORATION_TITLE_HEIGHT + (DECORATION_TITLE_HEIGHT - FRAME_BUTTON_SIZE) / 2;
	rect->width = FRAME_BUTTON_SIZE;
	rect->height = FRAME_BUTTON_SIZE;
	/* A button that would stick out on the left is left off. */
	return rect->x >= 0;
}

int frame_buttons_left(int content_width) {
	static const enum frame_part order[] = {
		FRAME_PART_MINIMIZE, FRAME_PART_MAXIMIZE, FRAME_PART_CLOSE,
	};
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		struct frame_rect rect;
		if (frame_button_rect(content_width, order[i], &rect)) {
			return rect.x - FRAME_BUTTON_GAP > 0 ? rect.x - FRAME_BUTTON_GAP : 0;
		}
	}
	return content_width;
}

static bool in_rect(const struct frame_rect *r, double x, double y) {
	return x >= r->x && x < r->x + r->width && y >= r->y && y < r->y + r->height;
}

/* Edges near (x, y), for a point already known to be on the border or margin. */
static uint32_t edges_at(const struct frame_rect *frame, double x, double y) {
	uint32_t edges = 0;
	double left = x - frame->x, right = frame->x + frame->width - x;
	double top = y - frame->y, bottom = frame->y + frame->height - y;
	/* Outside the frame, or on its 1 px border: the edge itself. */
	if (left <= DECORATION_BORDER) {
		edges |= FRAME_EDGE_LEFT;
	} else if (right <= DECORATION_BORDER) {
		edges |= FRAME_EDGE_RIGHT;
	}
	if (top <= DECORATION_BORDER) {
		edges |= FRAME_EDGE_TOP;
	} else if (bottom <= DECORATION_BORDER) {
		edges |= FRAME_EDGE_BOTTOM;
	}
	/* Near a corner along one edge: the corner. */
	if (edges & (FRAME_EDGE_LEFT | FRAME_EDGE_RIGHT)) {
		if (top < FRAME_CORNER) {
			edges |= FRAME_EDGE_TOP;
		} else if (bottom < FRAME_CORNER) {
			edges |= FRAME_EDGE_BOTTOM;
		}
	}
	if (edges & (FRAME_EDGE_TOP | FRAME_EDGE_BOTTOM)) {
		if (left < FRAME_CORNER) {
			edges |= FRAME_EDGE_LEFT;
		} else if (right < FRAME_CORNER) {
			edges |= FRAME_EDGE_RIGHT;
		}
	}
	return edges;
}

struct frame_hit frame_hit_test(int width, int height, bool resizable, double x, double y) {
	struct frame_hit hit = { FRAME_PART_NONE, 0 };
	if (x >= 0 && x < width && y >= 0 && y < height) {
		hit.part = FRAME_PART_CONTENT;
		return hit;
	}
	static const enum frame_part buttons[] = {
		FRAME_PART_MINIMIZE, FRAME_PART_MAXIMIZE, FRAME_PART_CLOSE,
	};
	for (size_t i = 0; i < sizeof(buttons) / sizeof(buttons[0]); i++) {
		struct frame_rect rect;
		if (frame_button_rect(width, buttons[i], &rect) && in_rect(&rect, x, y)) {
			hit.part = buttons[i];
			return hit;
		}
	}
	const int b = DECORATION_BORDER, t = DECORATION_TITLE_HEIGHT;
	struct frame_rect title = { 0, -t, width, t };
	if (in_rect(&title, x, y)) {
		hit.part = FRAME_PART_TITLE;
		return hit;
	}
	/* Only the border and the margin are left. */
	struct frame_rect frame = { -b, -t - b, width + 2 * b, height + t + 2 * b };
	if (!resizable) {
		/* The border is drawn, but is not a handle. */
		if (in_rect(&frame, x, y)) {
			hit.part = FRAME_PART_TITLE;
		}
		return hit;
	}
	const int m = FRAME_GRAB_MARGIN;
	struct frame_rect grab = { frame.x - m, frame.y - m, frame.width + 2 * m,
		frame.height + 2 * m };
	if (!in_rect(&grab, x, y)) {
		return hit;
	}
	hit.part = FRAME_PART_EDGE;
	hit.edges = edges_at(&frame, x, y);
	return hit;
}

const char *frame_cursor_name(uint32_t edges) {
	switch (edges) {
	case FRAME_EDGE_TOP:
		return "top_side";
	case FRAME_EDGE_BOTTOM:
		return "bottom_side";
	case FRAME_EDGE_LEFT:
		return "left_side";
	case FRAME_EDGE_RIGHT:
		return "right_side";
	case FRAME_EDGE_TOP | FRAME_EDGE_LEFT:
		return "top_left_corner";
	case FRAME_EDGE_TOP | FRAME_EDGE_RIGHT:
		return "top_right_corner";
	case FRAME_EDGE_BOTTOM | FRAME_EDGE_LEFT:
		return "bottom_left_corner";
	case FRAME_EDGE_BOTTOM | FRAME_EDGE_RIGHT:
		return "bottom_right_corner";
	default:
		return "left_ptr";
	}
}

static double distance(double a, double b) {
	return a > b ? a - b : b - a;
}

bool frame_click_is_double(const struct frame_click *last, uint64_t view_id,
		uint32_t time_msec, double x, double y) {
	if (!last->valid || last->view_id != view_id) {
		return false;
	}
	/* Unsigned: a clock that went back looks like a long wait. */
	uint32_t elapsed = time_msec - last->time_msec;
	return elapsed <= FRAME_DOUBLE_CLICK_MSEC &&
		distance(x, last->x) <= FRAME_DOUBLE_CLICK_DISTANCE &&
		distance(y, last->y) <= FRAME_DOUBLE_CLICK_DISTANCE;
}

/* Glyphs are drawn on a grid inset from the button's edge. */
static void fill(uint32_t *pixels, int size, int x0, int y0, int x1, int y1) {
	for (int y = y0 < 0 ? 0 : y0; y < y1 && y < size; y++) {
		for (int x = x0 < 0 ? 0 : x0; x < x1 && x < size; x++) {
			pixels[y * size + x] = 0xffffffff;
		}
	}
}

/* A box outline with a thicker top, like a window with its title bar. */
static void window_outline(uint32_t *pixels, int size, int x0, int y0, int x1, int y1) {
	fill(pixels, size, x0, y0, x1, y0 + 2);
	fill(pixels, size, x0, y1 - 1, x1, y1);
	fill(pixels, size, x0, y0, x0 + 1, y1);
	fill(pixels, size, x1 - 1, y0, x1, y1);
}

void frame_button_glyph(enum frame_part part, bool maximized, uint32_t *pixels, int size) {
	for (int i = 0; i < size * size; i++) {
		pixels[i] = 0;
	}
	const int in = size / 4; /* inset */
	switch (part) {
	case FRAME_PART_MINIMIZE:
		fill(pixels, size, in, size - in - 2, size - in, size - in);
		break;
	case FRAME_PART_MAXIMIZE:
		if (maximized) {
			/* Restore: a smaller window in front of another. */
			int s = size - 2 * in - 3;
			window_outline(pixels, size, in + 3, in, in + 3 + s, in + s);
			for (int y = in + 3; y < in + 3 + s; y++) {
				for (int x = in; x < in + s; x++) {
					pixels[y * size + x] = 0;
				}
			}
			window_outline(pixels, size, in, in + 3, in + s, in + 3 + s);
		} else {
			window_outline(pixels, size, in, in, size - in, size - in);
		}
		break;
	case FRAME_PART_CLOSE:
		/* Two diagonals, two pixels thick. */
		for (int i = in; i < size - in; i++) {
			fill(pixels, size, i, i, i + 2, i + 1);
			fill(pixels, size, size - 2 - i, i, size - i, i + 1);
		}
		break;
	default:
		break;
	}
}
