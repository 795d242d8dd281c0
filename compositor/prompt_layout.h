/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_PROMPT_LAYOUT_H
#define ORIEL_PROMPT_LAYOUT_H

/*
 * Geometry of the permission prompt and what a point on it hits. Pure:
 * tests/unit/test_prompt_layout.c links it directly, and prompt.c draws
 * and hit-tests with the same boxes.
 */

#include <stdbool.h>
#include "compositor/placement.h"

#define PROMPT_MAX_CHOICES 16
/*
 * A thumbnail's box (its picture and a one-pixel frame) is 8:5, as tall
 * as this at most; shorter when the rows would not fit the output
 * otherwise, and left out below the least.
 */
#define PROMPT_THUMBNAIL_MAX_HEIGHT 60
#define PROMPT_THUMBNAIL_MIN_HEIGHT 24
#define PROMPT_THUMBNAIL_FRAME 1

struct prompt_layout {
	struct placement_box panel;
	struct placement_box title;    /* who asks, for what */
	struct placement_box subtitle; /* "Choose what to share" (no choices: empty) */
	int n_choices;
	struct placement_box choices[PROMPT_MAX_CHOICES]; /* the rows */
	/* Each row's text: right of its thumbnail, or the whole row. */
	struct placement_box labels[PROMPT_MAX_CHOICES];
	bool has_thumbnails;
	/* At the left of each row: the frame's outer box. */
	struct placement_box thumbnails[PROMPT_MAX_CHOICES];
	bool has_remember;
	struct placement_box remember;       /* the checkbox */
	struct placement_box remember_label;
	struct placement_box deny, allow;
};

enum prompt_hit_kind {
	PROMPT_HIT_NONE,
	PROMPT_HIT_CHOICE,
	PROMPT_HIT_REMEMBER,
	PROMPT_HIT_DENY,
	PROMPT_HIT_ALLOW,
};

struct prompt_hit {
	enum prompt_hit_kind kind;
	int choice; /* for PROMPT_HIT_CHOICE */
};

/*
 * Lays the prompt out centered in area (the first output's layout box),
 * with n_choices rows (clamped to PROMPT_MAX_CHOICES) and the remember
 * checkbox when has_remember. With want_thumbnails each row has a
 * thumbnail box, as large as the panel still fits in area allows (see
 * PROMPT_THUMBNAIL_*); has_thumbnails says whether they got one.
 */
void prompt_layout_compute(struct prompt_layout *layout, const struct placement_box *area,
	int n_choices, bool has_remember, bool want_thumbnails);

/*
 * Where a picture of width x height (made to fit inside the frame)
 * goes in a thumbnail box: centered, cut to the room inside the frame.
 * An empty box when the picture or that room is empty.
 */
struct placement_box prompt_layout_thumbnail_picture(const struct placement_box *thumbnail,
	int width, int height);

/* What the layout point (x, y) hits. The label of the checkbox toggles it too. */
struct prompt_hit prompt_layout_hit(const struct prompt_layout *layout, double x, double y);

#endif
