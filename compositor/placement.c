/* SPDX-License-Identifier: MIT */
#include "compositor/placement.h"

#define CASCADE_STEP 32

static int clamp(int v, int lo, int hi) {
	if (hi < lo) {
		return lo;
	}
	return v < lo ? lo : (v > hi ? hi : v);
}

/* Keeps the frame inside area where it fits, its top-left corner always. */
static struct placement_box fit(const struct placement_box *area, int x, int y,
		int w, int h, int frame_top, int frame_side) {
	int min_x = area->x + frame_side;
	int min_y = area->y + frame_top;
	int max_x = area->x + area->width - w - frame_side;
	int max_y = area->y + area->height - h - frame_side;
	return (struct placement_box){
		clamp(x, min_x, max_x), clamp(y, min_y, max_y), w, h,
	};
}

struct placement_box placement_new_window(const struct placement_box *area,
		int w, int h, int frame_top, int frame_side,
		const struct placement_box *requested, int cascade) {
	if (requested) {
		/* Honoured, only nudged as far as needed to keep the frame visible. */
		return fit(area, requested->x, requested->y, w, h, frame_top, frame_side);
	}
	int x = area->x + (area->width - w) / 2;
	int y = area->y + (area->height - h + frame_top) / 2;
	int offset = (cascade % 8) * CASCADE_STEP;
	return fit(area, x + offset, y + offset, w, h, frame_top, frame_side);
}

struct placement_box placement_center_over(const struct placement_box *area,
		const struct placement_box *parent, int w, int h, int frame_top,
		int frame_side) {
	int x = parent->x + (parent->width - w) / 2;
	int y = parent->y + (parent->height - h) / 2;
	return fit(area, x, y, w, h, frame_top, frame_side);
}

bool placement_intersects(const struct placement_box *a, const struct placement_box *b) {
	return a->x < b->x + b->width && b->x < a->x + a->width &&
		a->y < b->y + b->height && b->y < a->y + a->height;
}

void placement_apply_gravity(enum placement_gravity gravity, int w, int h,
		int border, int frame_top, int frame_side, int *x, int *y) {
	if (gravity == PLACEMENT_GRAVITY_STATIC) {
		*x += border;
		*y += border;
		return;
	}
	int frame_w = w + 2 * frame_side;
	int frame_h = h + frame_top + frame_side;
	/* Column and row of the reference point: 0 start, 1 middle, 2 end. */
	int col = 0, row = 0;
	if (gravity >= PLACEMENT_GRAVITY_NORTH_WEST && gravity <= PLACEMENT_GRAVITY_SOUTH_EAST) {
		col = gravity % 3;
		row = gravity / 3;
	}
	/* The reference point on the unframed window, where the frame's goes. */
	int fx = *x + col * (w + 2 * border) / 2 - col * frame_w / 2;
	int fy = *y + row * (h + 2 * border) / 2 - row * frame_h / 2;
	*x = fx + frame_side;
	*y = fy + frame_top;
}

struct placement_box placement_corner(const struct placement_box *area, int w, int h,
		int frame_top, int frame_side) {
	return fit(area, area->x + area->width - w - frame_side, area->y + frame_top,
		w, h, frame_top, frame_side);
}

struct placement_box placement_maximize(const struct placement_box *area,
		const struct placement_box *free, unsigned axes, int frame_top, int frame_side) {
	struct placement_box box = *free;
	if (axes & PLACEMENT_AXIS_HORZ) {
		box.x = area->x + frame_side;
		box.width = area->width - 2 * frame_side;
	}
	if (axes & PLACEMENT_AXIS_VERT) {
		box.y = area->y + frame_top;
		box.height = area->height - frame_top - frame_side;
	}
	return box;
}

void placement_apply_strut(const struct placement_box *root,
		const struct placement_box *output, const struct placement_strut *strut,
		struct placement_box *usable) {
	int ox1 = output->x + output->width, oy1 = output->y + output->height;
	int rx1 = root->x + root->width, ry1 = root->y + root->height;
	int x0 = usable->x, y0 = usable->y;
	int x1 = usable->x + usable->width, y1 = usable->y + usable->height;
	/* Each band, in root coordinates; ends are inclusive in EWMH. */
	if (strut->left > 0 && strut->left_start_y < oy1 &&
			strut->left_end_y >= output->y) {
		int edge = root->x + strut->left;
		if (edge > output->x && edge > x0) {
			x0 = edge;
		}
	}
	if (strut->right > 0 && strut->right_start_y < oy1 &&
			strut->right_end_y >= output->y) {
		int edge = rx1 - strut->right;
		if (edge < ox1 && edge < x1) {
			x1 = edge;
		}
	}
	if (strut->top > 0 && strut->top_start_x < ox1 &&
			strut->top_end_x >= output->x) {
		int edge = root->y + strut->top;
		if (edge > output->y && edge > y0) {
			y0 = edge;
		}
	}
	if (strut->bottom > 0 && strut->bottom_start_x < ox1 &&
			strut->bottom_end_x >= output->x) {
		int edge = ry1 - strut->bottom;
		if (edge < oy1 && edge < y1) {
			y1 = edge;
		}
	}
	if (x1 <= x0 || y1 <= y0) {
		/* A strut that would leave nothing is ignored. */
		return;
	}
	*usable = (struct placement_box){x0, y0, x1 - x0, y1 - y0};
}
