/* SPDX-License-Identifier: MIT */
/* EnumFormat pods of a cast: see cast_spa_format.h. */

#include <spa/param/format.h>
#include <spa/param/video/raw.h>
#include <spa/pod/iter.h>
#include "capture/cast_spa_format.h"
#include "capture/pipewire/pipewire_stream.h"

uint32_t cast_spa_from_format(enum cast_format format) {
	switch (format) {
	case CAST_FORMAT_BGRX: return SPA_VIDEO_FORMAT_BGRx;
	case CAST_FORMAT_BGRA: return SPA_VIDEO_FORMAT_BGRA;
	case CAST_FORMAT_RGBX: return SPA_VIDEO_FORMAT_RGBx;
	case CAST_FORMAT_RGBA: return SPA_VIDEO_FORMAT_RGBA;
	case CAST_FORMAT_NONE: break;
	}
	return SPA_VIDEO_FORMAT_UNKNOWN;
}

enum cast_format cast_format_from_spa(uint32_t format) {
	switch (format) {
	case SPA_VIDEO_FORMAT_BGRx: return CAST_FORMAT_BGRX;
	case SPA_VIDEO_FORMAT_BGRA: return CAST_FORMAT_BGRA;
	case SPA_VIDEO_FORMAT_RGBx: return CAST_FORMAT_RGBX;
	case SPA_VIDEO_FORMAT_RGBA: return CAST_FORMAT_RGBA;
	}
	return CAST_FORMAT_NONE;
}

static void add_size_and_rate(struct spa_pod_builder *b, const struct cast_spa_size *s) {
	struct spa_rectangle size = SPA_RECTANGLE((uint32_t)s->width, (uint32_t)s->height);
	struct spa_rectangle min_size = SPA_RECTANGLE(1, 1);
	struct spa_rectangle max_size = SPA_RECTANGLE(PIPEWIRE_CAST_VIRTUAL_MAX_SIDE,
		PIPEWIRE_CAST_VIRTUAL_MAX_SIDE);
	struct spa_fraction zero = SPA_FRACTION(0, 1);
	struct spa_fraction max = SPA_FRACTION(CAST_MAX_FPS, 1);
	struct spa_fraction min = SPA_FRACTION(1, 1);
	if (s->range) {
		spa_pod_builder_add(b, SPA_FORMAT_VIDEO_size,
			SPA_POD_CHOICE_RANGE_Rectangle(&size, &min_size, &max_size), 0);
	} else {
		spa_pod_builder_add(b, SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&size), 0);
	}
	spa_pod_builder_add(b,
		SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&zero),
		SPA_FORMAT_VIDEO_maxFramerate, SPA_POD_CHOICE_RANGE_Fraction(&max, &min, &max),
		0);
}

static void push_video_raw(struct spa_pod_builder *b, struct spa_pod_frame *f) {
	spa_pod_builder_push_object(b, f, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
	spa_pod_builder_add(b,
		SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
		SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw), 0);
}

const struct spa_pod *cast_spa_format_plain(struct spa_pod_builder *b,
		const struct cast_spa_size *size) {
	struct spa_pod_frame f[2];
	push_video_raw(b, &f[0]);
	spa_pod_builder_prop(b, SPA_FORMAT_VIDEO_format, 0);
	spa_pod_builder_push_choice(b, &f[1], SPA_CHOICE_Enum, 0);
	/* The first value of an enum choice is its default. */
	spa_pod_builder_id(b, cast_spa_from_format(cast_formats_offered[0]));
	for (size_t i = 0; i < cast_formats_offered_len; i++) {
		spa_pod_builder_id(b, cast_spa_from_format(cast_formats_offered[i]));
	}
	spa_pod_builder_pop(b, &f[1]);
	add_size_and_rate(b, size);
	return spa_pod_builder_pop(b, &f[0]);
}

const struct spa_pod *cast_spa_format_dmabuf(struct spa_pod_builder *b,
		const struct cast_spa_size *size, enum cast_format format,
		const uint64_t *mods, size_t n, bool fixated) {
	if (n == 0) {
		return NULL;
	}
	struct spa_pod_frame f[2];
	push_video_raw(b, &f[0]);
	spa_pod_builder_add(b, SPA_FORMAT_VIDEO_format,
		SPA_POD_Id(cast_spa_from_format(format)), 0);
	if (fixated) {
		spa_pod_builder_prop(b, SPA_FORMAT_VIDEO_modifier, SPA_POD_PROP_FLAG_MANDATORY);
		spa_pod_builder_long(b, (int64_t)mods[0]);
	} else {
		/* Mandatory: only consumers that take dma-bufs match this one. */
		spa_pod_builder_prop(b, SPA_FORMAT_VIDEO_modifier,
			SPA_POD_PROP_FLAG_MANDATORY | SPA_POD_PROP_FLAG_DONT_FIXATE);
		spa_pod_builder_push_choice(b, &f[1], SPA_CHOICE_Enum, 0);
		spa_pod_builder_long(b, (int64_t)mods[0]);
		for (size_t i = 0; i < n; i++) {
			spa_pod_builder_long(b, (int64_t)mods[i]);
		}
		spa_pod_builder_pop(b, &f[1]);
	}
	add_size_and_rate(b, size);
	/* NULL when the builder ran out of space. */
	return spa_pod_builder_pop(b, &f[0]);
}

int cast_spa_format_modifiers(const struct spa_pod *format, uint64_t *out, size_t max,
		bool *dont_fixate) {
	const struct spa_pod_prop *prop = spa_pod_find_prop(format, NULL,
		SPA_FORMAT_VIDEO_modifier);
	if (!prop) {
		return -1;
	}
	*dont_fixate = (prop->flags & SPA_POD_PROP_FLAG_DONT_FIXATE) != 0;
	uint32_t n_values, choice;
	const struct spa_pod *values = spa_pod_get_values(&prop->value, &n_values, &choice);
	if (values->type != SPA_TYPE_Long) {
		return -1;
	}
	const int64_t *longs = SPA_POD_BODY_CONST(values);
	if (choice == SPA_CHOICE_None) {
		*dont_fixate = false; /* one value: the modifier is fixated */
	}
	size_t n = 0;
	for (uint32_t i = 0; i < n_values && n < max; i++) {
		out[n++] = (uint64_t)longs[i];
	}
	return (int)n;
}
