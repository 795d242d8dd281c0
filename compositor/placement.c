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
