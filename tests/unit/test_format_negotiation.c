/* Unit tests for capture/format_negotiation.c. */

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

static void test_modifiers_flow(void) {
	struct cast_modifier_state s;
	const uint64_t renderer[] = { 0x100, 0x200, 0x100, CAST_MOD_INVALID, 0x300 };
	cast_modifiers_init(&s, renderer, 5);
	CHECK(s.kind == CAST_BUFFER_DMABUF);
	CHECK(s.n_modifiers == 3); /* duplicate and implicit dropped */
	CHECK(cast_modifiers_explicit(&s));

	/* The consumer takes two of ours. */
	const uint64_t consumer[] = { 0x300, 0x200, 0x999 };
	CHECK(cast_modifiers_answer(&s, consumer, 3) == 2);
	CHECK(s.modifiers[0] == 0x200 && s.modifiers[1] == 0x300);

	/* Test allocation picks 0x200 and fails: 0x300 is left. */
	CHECK(cast_modifiers_failed(&s, 0x200) == CAST_BUFFER_DMABUF);
	CHECK(s.n_modifiers == 1 && s.modifiers[0] == 0x300);
	CHECK(cast_modifiers_explicit(&s));

	/* That fails too: implicit, then linear, then memfd. */
	CHECK(cast_modifiers_failed(&s, 0x300) == CAST_BUFFER_DMABUF);
	CHECK(s.n_modifiers == 1 && s.modifiers[0] == CAST_MOD_INVALID);
	CHECK(!cast_modifiers_explicit(&s));
	CHECK(cast_modifiers_failed(&s, CAST_MOD_INVALID) == CAST_BUFFER_DMABUF);
	CHECK(s.n_modifiers == 1 && s.modifiers[0] == CAST_MOD_LINEAR);
	CHECK(cast_modifiers_failed(&s, CAST_MOD_LINEAR) == CAST_BUFFER_MEMFD);
	CHECK(cast_modifiers_failed(&s, CAST_MOD_LINEAR) == CAST_BUFFER_MEMFD);
}

static void test_modifiers_no_overlap(void) {
	struct cast_modifier_state s;
	const uint64_t renderer[] = { 0x100 };
	cast_modifiers_init(&s, renderer, 1);
	const uint64_t consumer[] = { 0x555 };
	/* Nothing in common: straight to implicit. */
	CHECK(cast_modifiers_answer(&s, consumer, 1) == 1);
	CHECK(s.modifiers[0] == CAST_MOD_INVALID);
	/* An unknown failure drops the whole list. */
	cast_modifiers_init(&s, (const uint64_t[]){ 1, 2, 3 }, 3);
	CHECK(cast_modifiers_failed(&s, CAST_MOD_INVALID) == CAST_BUFFER_DMABUF);
	CHECK(s.modifiers[0] == CAST_MOD_INVALID && s.n_modifiers == 1);
}

static void test_modifiers_no_gpu(void) {
	struct cast_modifier_state s;
	cast_modifiers_init(&s, NULL, 0);
	CHECK(s.kind == CAST_BUFFER_MEMFD);
	CHECK(cast_modifiers_answer(&s, NULL, 0) == 0);
	CHECK(cast_modifiers_failed(&s, 0) == CAST_BUFFER_MEMFD);
	/* Only implicit from the renderer. */
	const uint64_t implicit[] = { CAST_MOD_INVALID };
	cast_modifiers_init(&s, implicit, 1);
	CHECK(s.kind == CAST_BUFFER_DMABUF && s.n_modifiers == 0);
	CHECK(cast_modifiers_answer(&s, implicit, 1) == 1);
	CHECK(s.modifiers[0] == CAST_MOD_INVALID);
}

int main(void) {
	test_choose();
	test_interval();
	test_modifiers_flow();
	test_modifiers_no_overlap();
	test_modifiers_no_gpu();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
