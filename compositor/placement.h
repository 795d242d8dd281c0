#ifndef ORIEL_PLACEMENT_H
#define ORIEL_PLACEMENT_H

/* Window placement arithmetic. Pure: unit tests link it directly. */

#include <stdbool.h>

struct placement_box {
	int x, y, width, height;
};

/*
 * Where a new window of content size w x h goes inside area (the usable
 * area of the output under the pointer). frame_top/frame_side are the
 * decoration sizes around the content. When the client asked for a
 * position (requested != NULL) it is honoured, nudged only as far as
 * needed to keep the frame inside area. Otherwise the window is centered,
 * moved down and right by cascade steps so stacked new windows stay visible.
 */
struct placement_box placement_new_window(const struct placement_box *area,
	int w, int h, int frame_top, int frame_side,
	const struct placement_box *requested, int cascade);

/* Centers a child over its parent, kept inside area. */
struct placement_box placement_center_over(const struct placement_box *area,
	const struct placement_box *parent, int w, int h, int frame_top, int frame_side);

/* Whether a and b overlap. */
bool placement_intersects(const struct placement_box *a, const struct placement_box *b);

#endif
