/* SPDX-License-Identifier: MIT */
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
	prompt_layout_compute(&l, &area, 2, true, false);
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
	prompt_layout_compute(&l, &area, 0, false, true);
	CHECK(l.n_choices == 0 && !l.has_remember && !l.has_thumbnails,
		"parts that were not asked for");
	CHECK(within(&l.allow, &l.panel), "Allow outside the panel");
	/* Where a checkbox would be, nothing toggles. */
	struct prompt_hit h = prompt_layout_hit(&l, mid_x(&l.remember), mid_y(&l.remember));
	CHECK(h.kind == PROMPT_HIT_NONE, "a missing checkbox hits %d", h.kind);
}

static void test_clamped(void) {
	struct placement_box small = { 0, 0, 300, 200 };
	struct prompt_layout l;
	prompt_layout_compute(&l, &small, 1000, true, true);
	CHECK(l.n_choices == PROMPT_MAX_CHOICES, "%d rows", l.n_choices);
	CHECK(l.panel.y >= small.y, "the panel's top is above the output");
	CHECK(l.deny.width > 0 && l.allow.width > 0, "buttons vanished");
	CHECK(!l.has_thumbnails, "thumbnails on an output too small for them");
	prompt_layout_compute(&l, &small, -3, false, true);
	CHECK(l.n_choices == 0, "negative rows gave %d", l.n_choices);
}

static bool overlap(const struct placement_box *a, const struct placement_box *b) {
	return a->x < b->x + b->width && b->x < a->x + a->width &&
		a->y < b->y + b->height && b->y < a->y + a->height;
}

static void check_thumbnail_rows(const struct prompt_layout *l, const char *where) {
	for (int i = 0; i < l->n_choices; i++) {
		const struct placement_box *t = &l->thumbnails[i], *label = &l->labels[i];
		CHECK(within(t, &l->choices[i]), "%s: thumbnail %d outside its row", where, i);
		CHECK(within(label, &l->choices[i]), "%s: label %d outside its row", where, i);
		CHECK(!overlap(t, label) && t->x + t->width <= label->x,
			"%s: thumbnail %d is not left of its label", where, i);
		CHECK(t->width == t->height * 8 / 5, "%s: thumbnail %d is %dx%d, not 8:5", where,
			i, t->width, t->height);
		CHECK(t->height >= PROMPT_THUMBNAIL_MIN_HEIGHT &&
			t->height <= PROMPT_THUMBNAIL_MAX_HEIGHT, "%s: thumbnail %d is %d tall",
			where, i, t->height);
		CHECK(label->width >= 100, "%s: label %d is %d wide", where, i, label->width);
		struct prompt_hit h = prompt_layout_hit(l, t->x + t->width / 2.0,
			t->y + t->height / 2.0);
		CHECK(h.kind == PROMPT_HIT_CHOICE && h.choice == i,
			"%s: thumbnail %d's middle hits %d/%d", where, i, h.kind, h.choice);
	}
}

static void test_thumbnails(void) {
	/* Room enough: full size. */
	struct placement_box area = { 100, 50, 1280, 720 };
	struct prompt_layout l;
	prompt_layout_compute(&l, &area, 3, true, true);
	CHECK(l.has_thumbnails, "no thumbnails on a large output");
	CHECK(l.thumbnails[0].height == PROMPT_THUMBNAIL_MAX_HEIGHT &&
		l.thumbnails[0].width == PROMPT_THUMBNAIL_MAX_HEIGHT * 8 / 5,
		"thumbnail %dx%d on a large output", l.thumbnails[0].width,
		l.thumbnails[0].height);
	check_thumbnail_rows(&l, "1280x720");
	CHECK(within(&l.panel, &area), "panel outside a large output");
	CHECK(l.choices[2].y + l.choices[2].height <= l.allow.y, "rows over the buttons");
	/* The same rows without thumbnails: as before, labels are the rows. */
	struct prompt_layout plain;
	prompt_layout_compute(&plain, &area, 3, true, false);
	CHECK(!plain.has_thumbnails && plain.thumbnails[0].width == 0, "unwanted thumbnails");
	CHECK(plain.labels[1].x == plain.choices[1].x &&
		plain.labels[1].width == plain.choices[1].width, "a plain row's label");
	CHECK(plain.choices[0].height < l.choices[0].height, "rows with thumbnails are not taller");

	/* Less room: smaller thumbnails, and the panel still fits. */
	struct placement_box medium = { 0, 0, 800, 600 };
	prompt_layout_compute(&l, &medium, 8, true, true);
	CHECK(l.has_thumbnails, "no thumbnails for 8 rows on 800x600");
	CHECK(l.thumbnails[0].height < PROMPT_THUMBNAIL_MAX_HEIGHT,
		"thumbnails not shrunk for 8 rows: %d", l.thumbnails[0].height);
	check_thumbnail_rows(&l, "800x600");
	CHECK(within(&l.panel, &medium), "panel %d,%d %dx%d outside 800x600", l.panel.x,
		l.panel.y, l.panel.width, l.panel.height);

	/* Too little: none, rows as without them. */
	struct placement_box small = { 0, 0, 640, 480 };
	prompt_layout_compute(&l, &small, 12, false, true);
	prompt_layout_compute(&plain, &small, 12, false, false);
	CHECK(!l.has_thumbnails, "thumbnails for 12 rows on 640x480");
	CHECK(l.choices[11].y == plain.choices[11].y &&
		l.choices[11].height == plain.choices[11].height, "rows changed without thumbnails");
	/* A narrow output: the label keeps room next to the thumbnail. */
	struct placement_box narrow = { 0, 0, 320, 480 };
	prompt_layout_compute(&l, &narrow, 2, false, true);
	CHECK(l.has_thumbnails, "no thumbnails for 2 rows on 320x480");
	check_thumbnail_rows(&l, "320x480");
}

static void check_picture(int w, int h, struct placement_box expected) {
	struct placement_box t = { 10, 20, 96, 60 };
	struct placement_box got = prompt_layout_thumbnail_picture(&t, w, h);
	CHECK(got.x == expected.x && got.y == expected.y && got.width == expected.width &&
		got.height == expected.height, "%dx%d goes at %d,%d %dx%d, not %d,%d %dx%d", w, h,
		got.x, got.y, got.width, got.height, expected.x, expected.y, expected.width,
		expected.height);
}

static void test_thumbnail_picture(void) {
	/* Inside the one-pixel frame: 94x58 at 11,21. */
	check_picture(77, 58, (struct placement_box){ 19, 21, 77, 58 });
	check_picture(94, 53, (struct placement_box){ 11, 23, 94, 53 });
	check_picture(94, 58, (struct placement_box){ 11, 21, 94, 58 });
	check_picture(10, 8, (struct placement_box){ 53, 46, 10, 8 });
	check_picture(500, 500, (struct placement_box){ 11, 21, 94, 58 }); /* cut to the room */
	struct placement_box t = { 10, 20, 96, 60 };
	struct placement_box got = prompt_layout_thumbnail_picture(&t, 0, 100);
	CHECK(got.width == 0 && got.height == 0, "an empty picture goes as %dx%d", got.width,
		got.height);
	struct placement_box tiny = { 0, 0, 2, 2 };
	got = prompt_layout_thumbnail_picture(&tiny, 100, 100);
	CHECK(got.width == 0 && got.height == 0, "a box with no room inside holds %dx%d",
		got.width, got.height);
}

int main(void) {
	test_centered_and_hits();
	test_thumbnails();
	test_thumbnail_picture();
	test_no_choices_no_remember();
	test_clamped();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	return 0;
}
