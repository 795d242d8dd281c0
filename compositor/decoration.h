/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_DECORATION_H
#define ORIEL_DECORATION_H

/*
 * Server-side window decoration: a title bar with the icon, the title and
 * minimize, maximize and close buttons, and a thin border. Where they are
 * is frame_layout.h's to say; frame_input.c makes them work.
 */

#include <stdbool.h>
#include <stdint.h>

#define DECORATION_TITLE_HEIGHT 24
#define DECORATION_BORDER 1
/* The window's icon, left of the title, centred in the bar's height. */
#define DECORATION_ICON_SIZE 16
#define DECORATION_ICON_MARGIN 4

struct wlr_scene_tree;

struct decoration {
	struct wlr_scene_tree *tree; /* child of the view's tree, behind the content */
	/*
	 * Top, bottom, left and right strips, not one rectangle behind the
	 * content: the pixman renderer fills a rectangle's whole size whatever
	 * the damage, and a window-sized one cost every frame of the window.
	 */
	struct wlr_scene_rect *border[4];
	struct wlr_scene_rect *title_bar;
	struct wlr_scene_buffer *title_text;
	struct wlr_scene_buffer *icon; /* NULL: no icon */
	/* Minimize, maximize (or restore), close; NULL where they did not fit. */
	struct wlr_scene_buffer *buttons[3];
	int buttons_width;   /* the width they were placed for */
	bool buttons_maximized; /* and whether maximize was drawn as restore */
	char *text;     /* what title_text shows */
	int text_width; /* and how wide it was drawn */
	bool enabled;
	bool focused;
	bool attention;
};

void decoration_init(struct decoration *decoration, struct wlr_scene_tree *parent);
void decoration_finish(struct decoration *decoration);
/* Redraws for a content of this size; hidden when disabled. */
void decoration_update(struct decoration *decoration, int width, int height,
	const char *title, bool focused, bool attention, bool maximized);
void decoration_set_enabled(struct decoration *decoration, bool enabled);
/*
 * Shows DECORATION_ICON_SIZE squared premultiplied ARGB pixels left of the
 * title; NULL removes the icon.
 */
void decoration_set_icon(struct decoration *decoration, const uint32_t *pixels);

#endif
