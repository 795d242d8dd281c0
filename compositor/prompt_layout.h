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

struct prompt_layout {
	struct placement_box panel;
	struct placement_box title;    /* who asks, for what */
	struct placement_box subtitle; /* "Choose what to share" (no choices: empty) */
	int n_choices;
	struct placement_box choices[PROMPT_MAX_CHOICES];
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
 * checkbox when has_remember.
 */
void prompt_layout_compute(struct prompt_layout *layout, const struct placement_box *area,
	int n_choices, bool has_remember);

/* What the layout point (x, y) hits. The label of the checkbox toggles it too. */
struct prompt_hit prompt_layout_hit(const struct prompt_layout *layout, double x, double y);

#endif
