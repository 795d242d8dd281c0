/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_FRAME_LAYOUT_H
#define ORIEL_FRAME_LAYOUT_H

/*
 * The server-side frame's geometry and hit testing, without wlroots: where
 * the title bar's buttons are, and which part of the frame a point is on.
 * Coordinates are relative to the content's top-left corner; the title
 * bar and the border reach up and out from it (decoration.h).
 */

#include <stdbool.h>
#include <stdint.h>

/* Buttons: squares at the right end of the title bar, close rightmost. */
#define FRAME_BUTTON_SIZE 18
#define FRAME_BUTTON_GAP 3 /* between buttons, and right of the last one */
/* Invisible band outside the border that still resizes, as in openbox. */
#define FRAME_GRAB_MARGIN 6
/* Along an edge, this close to a corner resizes both ways. */
#define FRAME_CORNER 20
/* Double-click on the title bar: the time and distance toolkits use. */
#define FRAME_DOUBLE_CLICK_MSEC 400
#define FRAME_DOUBLE_CLICK_DISTANCE 5

enum frame_part {
	FRAME_PART_NONE,     /* not on the view at all */
	FRAME_PART_CONTENT,  /* the client's own surface */
	FRAME_PART_TITLE,
	FRAME_PART_MINIMIZE,
	FRAME_PART_MAXIMIZE, /* restore, when maximized */
	FRAME_PART_CLOSE,
	FRAME_PART_EDGE,     /* border or grab margin: resize from hit.edges */
};

/* The same values as wlroots' enum wlr_edges. */
enum frame_edge {
	FRAME_EDGE_TOP = 1,
	FRAME_EDGE_BOTTOM = 2,
	FRAME_EDGE_LEFT = 4,
	FRAME_EDGE_RIGHT = 8,
};

struct frame_rect {
	int x, y, width, height;
};

struct frame_hit {
	enum frame_part part;
	uint32_t edges; /* enum frame_edge bits, for FRAME_PART_EDGE */
};

/* A title-bar click, remembered to recognise the second of a double-click. */
struct frame_click {
	bool valid;
	uint64_t view_id;
	uint32_t time_msec;
	double x, y;
};

/*
 * Where a button sits for a content this wide; false when the bar is too
 * narrow to show it. part is one of the three buttons.
 */
bool frame_button_rect(int content_width, enum frame_part part, struct frame_rect *rect);
/* The title bar's x where the buttons begin: the title text ends there. */
int frame_buttons_left(int content_width);
/*
 * The part of a frame around a width x height content that (x, y) is on.
 * resizable is false for maximized views: their edges do not resize.
 */
struct frame_hit frame_hit_test(int width, int height, bool resizable, double x, double y);
/* The xcursor name for a resize from these edges; "left_ptr" for none. */
const char *frame_cursor_name(uint32_t edges);
/* Whether this click, after *last, is the second of a double-click. */
bool frame_click_is_double(const struct frame_click *last, uint64_t view_id,
	uint32_t time_msec, double x, double y);
/*
 * Draws a button's glyph, white on transparent, into size x size
 * premultiplied ARGB pixels. maximized picks the restore glyph.
 */
void frame_button_glyph(enum frame_part part, bool maximized, uint32_t *pixels, int size);

#endif
