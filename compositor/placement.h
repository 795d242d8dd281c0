/* SPDX-License-Identifier: MIT */
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

/* A reference point, as X's win_gravity names it (ICCCM 4.1.2.3). */
enum placement_gravity {
	PLACEMENT_GRAVITY_NORTH_WEST = 0, /* the default */
	PLACEMENT_GRAVITY_NORTH,
	PLACEMENT_GRAVITY_NORTH_EAST,
	PLACEMENT_GRAVITY_WEST,
	PLACEMENT_GRAVITY_CENTER,
	PLACEMENT_GRAVITY_EAST,
	PLACEMENT_GRAVITY_SOUTH_WEST,
	PLACEMENT_GRAVITY_SOUTH,
	PLACEMENT_GRAVITY_SOUTH_EAST,
	PLACEMENT_GRAVITY_STATIC,
};

/*
 * A client asked for its window, a content of w x h, at (*x, *y) as if it
 * had no frame, with its own X border of border pixels around the content
 * (which the window manager takes away). ICCCM 4.1.2.3: the reference point that gravity names on
 * that unframed window (its top-left corner for NorthWest, its center for
 * Center, its bottom-right corner for SouthEast...) is where the same
 * point of the frame goes; with Static the content stays where asked.
 * Returns through x/y the content's top-left inside the frame so placed
 * (frame_side borders, a frame_top title).
 */
void placement_apply_gravity(enum placement_gravity gravity, int w, int h,
	int border, int frame_top, int frame_side, int *x, int *y);

/*
 * Space an X dock reserves (EWMH _NET_WM_STRUT_PARTIAL, root coordinates):
 * a thickness at each edge of the root window, over a range along it.
 */
struct placement_strut {
	int left, right, top, bottom;
	int left_start_y, left_end_y, right_start_y, right_end_y;
	int top_start_x, top_end_x, bottom_start_x, bottom_end_x;
};

/*
 * Takes what strut reserves out of *usable, the usable area of the output
 * whose full box is output, on a root window (layout) root. An edge
 * reservation shrinks usable only where its band overlaps the output.
 */
void placement_apply_strut(const struct placement_box *root,
	const struct placement_box *output, const struct placement_strut *strut,
	struct placement_box *usable);

/* The top-right corner of area for a frame around a w x h content. */
struct placement_box placement_corner(const struct placement_box *area, int w, int h,
	int frame_top, int frame_side);

/* The axes a window is maximized on (EWMH _NET_WM_STATE_MAXIMIZED_HORZ/VERT). */
enum placement_axes {
	PLACEMENT_AXIS_HORZ = 1 << 0,
	PLACEMENT_AXIS_VERT = 1 << 1,
	PLACEMENT_AXES_BOTH = PLACEMENT_AXIS_HORZ | PLACEMENT_AXIS_VERT,
};

/*
 * The content box of a window maximized on axes inside area: on each of
 * those axes its frame spans area; on the others it keeps free's position
 * and size.
 */
struct placement_box placement_maximize(const struct placement_box *area,
	const struct placement_box *free, unsigned axes, int frame_top, int frame_side);

/* Whether a and b overlap. */
bool placement_intersects(const struct placement_box *a, const struct placement_box *b);

#endif
