/* The permission prompt's layout and hit testing (compositor/prompt_layout.c). */
#include <stdio.h>
#include "compositor/prompt_layout.h"

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fprintf(stderr, "\n"); \
		failures++; \
	} \
} while (0)

static double mid_x(const struct placement_box *b) {
	return b->x + b->width / 2.0;
}

static double mid_y(const struct placement_box *b) {
	return b->y + b->height / 2.0;
}

static bool within(const struct placement_box *inner, const struct placement_box *outer) {
	return inner->x >= outer->x && inner->y >= outer->y &&
		inner->x + inner->width <= outer->x + outer->width &&
		inner->y + inner->height <= outer->y + outer->height;
}

static void test_centered_and_hits(void) {
	struct placement_box area = { 100, 50, 1280, 720 };
	struct prompt_layout l;
	prompt_layout_compute(&l, &area, 2, true);
	CHECK(within(&l.panel, &area), "panel %d,%d %dx%d outside the output",
		l.panel.x, l.panel.y, l.panel.width, l.panel.height);
	int left = l.panel.x - area.x, right = area.x + area.width - l.panel.x - l.panel.width;
	CHECK(left - right <= 1 && right - left <= 1, "not centered: %d vs %d", left, right);
	CHECK(l.deny.x + l.deny.width <= l.allow.x, "Deny is not left of Allow");
	CHECK(l.choices[0].y + l.choices[0].height <= l.choices[1].y, "rows overlap");
	CHECK(l.choices[1].y < l.remember.y && l.remember.y < l.allow.y, "order of the parts");
	const struct placement_box *parts[] = { &l.title, &l.choices[0], &l.choices[1],
		&l.remember, &l.deny, &l.allow };
	for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		CHECK(within(parts[i], &l.panel), "part %u outside the panel", i);
	}

	struct prompt_hit h = prompt_layout_hit(&l, mid_x(&l.allow), mid_y(&l.allow));
	CHECK(h.kind == PROMPT_HIT_ALLOW, "Allow's middle hits %d", h.kind);
	h = prompt_layout_hit(&l, mid_x(&l.deny), mid_y(&l.deny));
	CHECK(h.kind == PROMPT_HIT_DENY, "Deny's middle hits %d", h.kind);
	h = prompt_layout_hit(&l, mid_x(&l.choices[1]), mid_y(&l.choices[1]));
	CHECK(h.kind == PROMPT_HIT_CHOICE && h.choice == 1, "row 2 hits %d/%d", h.kind, h.choice);
	h = prompt_layout_hit(&l, mid_x(&l.remember_label), mid_y(&l.remember_label));
	CHECK(h.kind == PROMPT_HIT_REMEMBER, "the checkbox's label hits %d", h.kind);
	h = prompt_layout_hit(&l, l.allow.x + l.allow.width, mid_y(&l.allow));
	CHECK(h.kind == PROMPT_HIT_NONE, "just right of Allow hits %d", h.kind);
	h = prompt_layout_hit(&l, area.x + 1, area.y + 1);
	CHECK(h.kind == PROMPT_HIT_NONE, "the corner of the output hits %d", h.kind);
}

static void test_no_choices_no_remember(void) {
	struct placement_box area = { 0, 0, 640, 480 };
	struct prompt_layout l;
	prompt_layout_compute(&l, &area, 0, false);
	CHECK(l.n_choices == 0 && !l.has_remember, "parts that were not asked for");
	CHECK(within(&l.allow, &l.panel), "Allow outside the panel");
	/* Where a checkbox would be, nothing toggles. */
	struct prompt_hit h = prompt_layout_hit(&l, mid_x(&l.remember), mid_y(&l.remember));
	CHECK(h.kind == PROMPT_HIT_NONE, "a missing checkbox hits %d", h.kind);
}

static void test_clamped(void) {
	struct placement_box small = { 0, 0, 300, 200 };
	struct prompt_layout l;
	prompt_layout_compute(&l, &small, 1000, true);
	CHECK(l.n_choices == PROMPT_MAX_CHOICES, "%d rows", l.n_choices);
	CHECK(l.panel.y >= small.y, "the panel's top is above the output");
	CHECK(l.deny.width > 0 && l.allow.width > 0, "buttons vanished");
	prompt_layout_compute(&l, &small, -3, false);
	CHECK(l.n_choices == 0, "negative rows gave %d", l.n_choices);
}

int main(void) {
	test_centered_and_hits();
	test_no_choices_no_remember();
	test_clamped();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	return 0;
}
