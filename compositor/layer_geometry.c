/* SPDX-License-Identifier: MIT */
#include "compositor/layer_geometry.h"

/* One axis: start/size from the two anchors, margins and the bounds. */
static bool place_axis(int bounds_start, int bounds_size, bool anchor_start,
		bool anchor_end, int margin_start, int margin_end, uint32_t want,
		int *start, int *size) {
	if (want == 0) {
		if (!(anchor_start && anchor_end)) {
			return false;
		}
		*size = bounds_size - margin_start - margin_end;
	} else {
		*size = (int)want;
	}
	if (*size < 0) {
		*size = 0;
	}
	if (anchor_start && !anchor_end) {
		*start = bounds_start + margin_start;
	} else if (anchor_end && !anchor_start) {
		*start = bounds_start + bounds_size - *size - margin_end;
	} else if (anchor_start && anchor_end && want == 0) {
		*start = bounds_start + margin_start;
	} else {
		*start = bounds_start + (bounds_size - *size) / 2;
	}
	return true;
}

static void reserve(struct placement_box *usable, uint32_t anchor, int32_t zone,
		const struct layer_request *r) {
	const uint32_t horizontal = LAYER_ANCHOR_LEFT | LAYER_ANCHOR_RIGHT;
	const uint32_t vertical = LAYER_ANCHOR_TOP | LAYER_ANCHOR_BOTTOM;
	/* Only an edge panel reserves: one edge, optionally spanning its length. */
	if (anchor == LAYER_ANCHOR_TOP || anchor == (LAYER_ANCHOR_TOP | horizontal)) {
		usable->y += zone + r->margin_top;
		usable->height -= zone + r->margin_top;
	} else if (anchor == LAYER_ANCHOR_BOTTOM ||
			anchor == (LAYER_ANCHOR_BOTTOM | horizontal)) {
		usable->height -= zone + r->margin_bottom;
	} else if (anchor == LAYER_ANCHOR_LEFT || anchor == (LAYER_ANCHOR_LEFT | vertical)) {
		usable->x += zone + r->margin_left;
		usable->width -= zone + r->margin_left;
	} else if (anchor == LAYER_ANCHOR_RIGHT ||
			anchor == (LAYER_ANCHOR_RIGHT | vertical)) {
		usable->width -= zone + r->margin_right;
	}
	if (usable->width < 0) {
		usable->width = 0;
	}
	if (usable->height < 0) {
		usable->height = 0;
	}
}

bool layer_geometry_place(const struct placement_box *full, struct placement_box *usable,
		const struct layer_request *r, struct placement_box *out) {
	/* -1: ignore other panels' zones; 0 or more: stay out of them. */
	const struct placement_box *bounds = r->exclusive_zone == -1 ? full : usable;
	uint32_t a = r->anchor;
	if (!place_axis(bounds->x, bounds->width, a & LAYER_ANCHOR_LEFT,
			a & LAYER_ANCHOR_RIGHT, r->margin_left, r->margin_right, r->width,
			&out->x, &out->width) ||
			!place_axis(bounds->y, bounds->height, a & LAYER_ANCHOR_TOP,
			a & LAYER_ANCHOR_BOTTOM, r->margin_top, r->margin_bottom, r->height,
			&out->y, &out->height)) {
		return false;
	}
	if (r->exclusive_zone > 0) {
		reserve(usable, a, r->exclusive_zone, r);
	}
	return true;
}
