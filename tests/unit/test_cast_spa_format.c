/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for capture/cast_spa_format.c: the EnumFormat pods of the
 * dma-buf offer, and reading the consumer's modifiers back, including
 * after SPA's own intersection of our offer with a consumer's formats.
 */

#include <stdbool.h>
#include <stdio.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/filter.h>
#include "capture/cast_spa_format.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
	failures++; } } while (0)

static const struct cast_spa_size size = { .width = 640, .height = 480 };

static void test_plain_has_no_modifier(void) {
	uint8_t buf[4096];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *pod = cast_spa_format_plain(&b, &size);
	CHECK(pod != NULL);
	uint64_t mods[4];
	bool dont_fixate;
	CHECK(cast_spa_format_modifiers(pod, mods, 4, &dont_fixate) == -1);
	struct spa_video_info_raw info;
	CHECK(spa_format_video_raw_parse(pod, &info) >= 0);
	CHECK(info.size.width == 640 && info.size.height == 480);
}

static void test_offer_is_dont_fixate(void) {
	uint8_t buf[4096];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const uint64_t ours[] = { 0x100, 0x200, CAST_MOD_INVALID };
	const struct spa_pod *pod = cast_spa_format_dmabuf(&b, &size, CAST_FORMAT_RGBX,
		ours, 3, false);
	CHECK(pod != NULL);
	const struct spa_pod_prop *prop = spa_pod_find_prop(pod, NULL,
		SPA_FORMAT_VIDEO_modifier);
	CHECK(prop && prop->flags == (SPA_POD_PROP_FLAG_MANDATORY |
		SPA_POD_PROP_FLAG_DONT_FIXATE));
	uint64_t mods[8];
	bool dont_fixate = false;
	/* The enum's default first, then every value. */
	CHECK(cast_spa_format_modifiers(pod, mods, 8, &dont_fixate) == 4);
	CHECK(dont_fixate);
	CHECK(mods[0] == 0x100 && mods[1] == 0x100 && mods[2] == 0x200 &&
		mods[3] == CAST_MOD_INVALID);
	/* param_changed parses such a format too. */
	struct spa_video_info_raw info;
	CHECK(spa_format_video_raw_parse(pod, &info) >= 0);
	CHECK(info.format == SPA_VIDEO_FORMAT_RGBx);
	CHECK(info.flags & SPA_VIDEO_FLAG_MODIFIER);
	/* Nothing to offer: no pod. */
	CHECK(cast_spa_format_dmabuf(&b, &size, CAST_FORMAT_RGBX, ours, 0, false) == NULL);
}

static void test_fixated(void) {
	uint8_t buf[4096];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const uint64_t fixated = 0x200;
	const struct spa_pod *pod = cast_spa_format_dmabuf(&b, &size, CAST_FORMAT_BGRX,
		&fixated, 1, true);
	CHECK(pod != NULL);
	const struct spa_pod_prop *prop = spa_pod_find_prop(pod, NULL,
		SPA_FORMAT_VIDEO_modifier);
	CHECK(prop && prop->flags == SPA_POD_PROP_FLAG_MANDATORY);
	uint64_t mods[8];
	bool dont_fixate = true;
	CHECK(cast_spa_format_modifiers(pod, mods, 8, &dont_fixate) == 1);
	CHECK(!dont_fixate && mods[0] == 0x200);
	struct spa_video_info_raw info;
	CHECK(spa_format_video_raw_parse(pod, &info) >= 0);
	CHECK(info.modifier == 0x200);
}

/* SPA intersects our offer with a consumer's formats as PipeWire does. */
static void test_consumer_answer(void) {
	uint8_t buf[4096], out[4096];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const uint64_t ours[] = { 0x100, 0x200, 0x300, CAST_MOD_LINEAR };
	const struct spa_pod *offer = cast_spa_format_dmabuf(&b, &size, CAST_FORMAT_BGRX,
		ours, 4, false);
	const uint64_t theirs[] = { 0x300, 0x300, 0x999, CAST_MOD_LINEAR };
	const struct spa_pod *consumer = cast_spa_format_dmabuf(&b, &size,
		CAST_FORMAT_BGRX, theirs, 4, false);
	CHECK(offer && consumer);
	struct spa_pod_builder ob = SPA_POD_BUILDER_INIT(out, sizeof(out));
	struct spa_pod *answer = NULL;
	CHECK(spa_pod_filter(&ob, &answer, offer, consumer) >= 0 && answer);
	if (!answer) {
		return;
	}
	uint64_t mods[8];
	bool dont_fixate = false;
	int n = cast_spa_format_modifiers(answer, mods, 8, &dont_fixate);
	CHECK(dont_fixate);
	/* The common ones, whatever the default: the flow works on those. */
	struct cast_modifiers m;
	cast_modifiers_init(&m, ours, 4);
	CHECK(n > 0);
	CHECK(cast_modifiers_answer(&m, mods, (size_t)(n > 0 ? n : 0)) == CAST_STEP_EXPLICIT);
	CHECK(m.n_explicit == 1 && m.explicit[0] == 0x300 && m.linear && !m.implicit);
}

int main(void) {
	test_plain_has_no_modifier();
	test_offer_is_dont_fixate();
	test_fixated();
	test_consumer_answer();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
