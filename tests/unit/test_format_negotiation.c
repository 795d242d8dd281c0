/* SPDX-License-Identifier: MIT */
/* Unit tests for capture/format_negotiation.c. */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "capture/format_negotiation.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
	failures++; } } while (0)

static void test_choose(void) {
	enum cast_format a[] = { CAST_FORMAT_RGBA, CAST_FORMAT_BGRX };
	CHECK(cast_format_choose(a, 2) == CAST_FORMAT_RGBA);
	enum cast_format b[] = { CAST_FORMAT_NONE, CAST_FORMAT_RGBX };
	CHECK(cast_format_choose(b, 2) == CAST_FORMAT_RGBX);
	CHECK(cast_format_choose(b, 1) == CAST_FORMAT_NONE);
	CHECK(cast_format_choose(NULL, 0) == CAST_FORMAT_NONE);
	CHECK(cast_formats_offered[0] == CAST_FORMAT_BGRX);
	CHECK(cast_format_swaps_rb(CAST_FORMAT_RGBX) && cast_format_swaps_rb(CAST_FORMAT_RGBA));
	CHECK(!cast_format_swaps_rb(CAST_FORMAT_BGRX) && !cast_format_swaps_rb(CAST_FORMAT_BGRA));
	CHECK(cast_format_has_alpha(CAST_FORMAT_BGRA) && !cast_format_has_alpha(CAST_FORMAT_RGBX));
}

static void test_interval(void) {
	CHECK(cast_frame_interval_ns(60, 1) == 1000000000ull / 60);
	CHECK(cast_frame_interval_ns(120, 1) == 1000000000ull / 60); /* clamped */
	CHECK(cast_frame_interval_ns(30, 1) == 1000000000ull / 30);
	CHECK(cast_frame_interval_ns(0, 1) == 1000000000ull / 60);
	CHECK(cast_frame_interval_ns(1, 0) == 1000000000ull / 60);
	CHECK(cast_frame_interval_ns(1, 2) == 2000000000ull);
}

#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | \
	(uint32_t)(c) << 16 | (uint32_t)(d) << 24)

static void test_drm_formats(void) {
	CHECK(cast_format_drm(CAST_FORMAT_BGRX) == FOURCC('X', 'R', '2', '4'));
	CHECK(cast_format_drm(CAST_FORMAT_BGRA) == FOURCC('A', 'R', '2', '4'));
	CHECK(cast_format_drm(CAST_FORMAT_RGBX) == FOURCC('X', 'B', '2', '4'));
	CHECK(cast_format_drm(CAST_FORMAT_RGBA) == FOURCC('A', 'B', '2', '4'));
	CHECK(cast_format_drm(CAST_FORMAT_NONE) == 0);
}

static bool offers(const struct cast_modifiers *m, uint64_t mod) {
	for (size_t i = 0; i < m->n_offer; i++) {
		if (m->offer[i] == mod) {
			return true;
		}
	}
	return false;
}

/* Every step fails in turn: explicit set, implicit, linear, memfd. */
static void test_modifiers_every_fallback(void) {
	struct cast_modifiers m;
	const uint64_t renderer[] = { 0x100, 0x200, 0x100, CAST_MOD_INVALID, 0x300,
		CAST_MOD_LINEAR };
	cast_modifiers_init(&m, renderer, 6);
	CHECK(m.n_offer == 5); /* the duplicate dropped */
	CHECK(m.step == CAST_STEP_EXPLICIT);

	/* The consumer takes two of ours, implicit and linear (0x999 is not ours). */
	const uint64_t consumer[] = { 0x300, 0x300, 0x200, 0x999, CAST_MOD_LINEAR,
		CAST_MOD_INVALID };
	CHECK(cast_modifiers_answer(&m, consumer, 6) == CAST_STEP_EXPLICIT);
	CHECK(m.n_explicit == 2 && m.explicit[0] == 0x300 && m.explicit[1] == 0x200);
	CHECK(m.implicit && m.linear);

	/* The explicit set fails as a whole: those go from the offer. */
	CHECK(cast_modifiers_failed(&m) == CAST_STEP_IMPLICIT);
	CHECK(!offers(&m, 0x200) && !offers(&m, 0x300) && offers(&m, 0x100));
	CHECK(offers(&m, CAST_MOD_INVALID) && offers(&m, CAST_MOD_LINEAR));

	CHECK(cast_modifiers_failed(&m) == CAST_STEP_LINEAR);
	CHECK(!offers(&m, CAST_MOD_INVALID) && offers(&m, CAST_MOD_LINEAR));

	CHECK(cast_modifiers_failed(&m) == CAST_STEP_MEMFD);
	CHECK(m.n_offer == 0); /* memfd only from now on */
	CHECK(cast_modifiers_failed(&m) == CAST_STEP_MEMFD);
	uint64_t fixated;
	CHECK(!cast_modifiers_fixate(&m, 0x100, &fixated));
}

/* Success at each step fixates that step's modifier. */
static void test_modifiers_fixate(void) {
	struct cast_modifiers m;
	const uint64_t renderer[] = { 0x100, 0x200, CAST_MOD_INVALID, CAST_MOD_LINEAR };
	uint64_t fixated = 0;

	cast_modifiers_init(&m, renderer, 4);
	CHECK(cast_modifiers_answer(&m, renderer, 4) == CAST_STEP_EXPLICIT);
	CHECK(cast_modifiers_fixate(&m, 0x200, &fixated) && fixated == 0x200);
	/* An allocator picking one outside the answer is no success. */
	CHECK(!cast_modifiers_fixate(&m, 0x555, &fixated));

	CHECK(cast_modifiers_failed(&m) == CAST_STEP_IMPLICIT);
	/* Implicit buffers report the layout they got: we fixate implicit. */
	CHECK(cast_modifiers_fixate(&m, 0x100, &fixated) && fixated == CAST_MOD_INVALID);

	CHECK(cast_modifiers_failed(&m) == CAST_STEP_LINEAR);
	CHECK(cast_modifiers_fixate(&m, CAST_MOD_LINEAR, &fixated) &&
		fixated == CAST_MOD_LINEAR);

	/* A fixated modifier is allocated by its own step. */
	CHECK(cast_modifier_step_of(CAST_MOD_INVALID) == CAST_STEP_IMPLICIT);
	CHECK(cast_modifier_step_of(CAST_MOD_LINEAR) == CAST_STEP_LINEAR);
	CHECK(cast_modifier_step_of(0x200) == CAST_STEP_EXPLICIT);
}

/* Steps the consumer does not take are skipped. */
static void test_modifiers_skipped_steps(void) {
	struct cast_modifiers m;
	const uint64_t renderer[] = { 0x100, CAST_MOD_INVALID, CAST_MOD_LINEAR };
	cast_modifiers_init(&m, renderer, 3);

	/* Only linear in common: straight to it. */
	const uint64_t linear_only[] = { CAST_MOD_LINEAR, 0x777 };
	CHECK(cast_modifiers_answer(&m, linear_only, 2) == CAST_STEP_LINEAR);
	CHECK(m.n_explicit == 0 && !m.implicit);

	/* Explicit and linear, no implicit: explicit fails, then linear. */
	const uint64_t no_implicit[] = { 0x100, CAST_MOD_LINEAR };
	CHECK(cast_modifiers_answer(&m, no_implicit, 2) == CAST_STEP_EXPLICIT);
	CHECK(cast_modifiers_failed(&m) == CAST_STEP_LINEAR);

	/* Only explicit: its failure leaves memfd. */
	cast_modifiers_init(&m, renderer, 3);
	const uint64_t explicit_only[] = { 0x100 };
	CHECK(cast_modifiers_answer(&m, explicit_only, 1) == CAST_STEP_EXPLICIT);
	CHECK(cast_modifiers_failed(&m) == CAST_STEP_MEMFD);
	CHECK(m.n_offer == 0);

	/* Nothing in common. */
	cast_modifiers_init(&m, renderer, 3);
	const uint64_t other[] = { 0x999 };
	CHECK(cast_modifiers_answer(&m, other, 1) == CAST_STEP_MEMFD);
	CHECK(m.n_offer == 0);
}

/* After a failure, a later answer (a new size) tries only what is left. */
static void test_modifiers_dropped_stay_dropped(void) {
	struct cast_modifiers m;
	const uint64_t renderer[] = { 0x100, CAST_MOD_INVALID };
	cast_modifiers_init(&m, renderer, 2);
	CHECK(cast_modifiers_answer(&m, renderer, 2) == CAST_STEP_EXPLICIT);
	CHECK(cast_modifiers_failed(&m) == CAST_STEP_IMPLICIT);
	uint64_t fixated;
	CHECK(cast_modifiers_fixate(&m, CAST_MOD_INVALID, &fixated));
	/* The consumer still lists 0x100: it is no longer ours to offer. */
	CHECK(cast_modifiers_answer(&m, renderer, 2) == CAST_STEP_IMPLICIT);
	CHECK(m.n_explicit == 0);
}

static void test_modifiers_no_gpu(void) {
	struct cast_modifiers m;
	cast_modifiers_init(&m, NULL, 0);
	CHECK(m.n_offer == 0 && m.step == CAST_STEP_MEMFD);
	CHECK(cast_modifiers_answer(&m, NULL, 0) == CAST_STEP_MEMFD);
	CHECK(cast_modifiers_failed(&m) == CAST_STEP_MEMFD);
	const uint64_t renderer[] = { 0x100 };
	cast_modifiers_init(&m, renderer, 1);
	cast_modifiers_clear(&m);
	CHECK(m.n_offer == 0 && m.step == CAST_STEP_MEMFD);
}

int main(void) {
	test_choose();
	test_interval();
	test_drm_formats();
	test_modifiers_every_fallback();
	test_modifiers_fixate();
	test_modifiers_skipped_steps();
	test_modifiers_dropped_stay_dropped();
	test_modifiers_no_gpu();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
