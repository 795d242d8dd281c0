/* SPDX-License-Identifier: MIT */
/* Pure format and modifier negotiation: see format_negotiation.h. */

#include <string.h>
#include "capture/format_negotiation.h"

const enum cast_format cast_formats_offered[] = {
	CAST_FORMAT_BGRX,
	CAST_FORMAT_BGRA,
	CAST_FORMAT_RGBX,
	CAST_FORMAT_RGBA,
};
const size_t cast_formats_offered_len =
	sizeof(cast_formats_offered) / sizeof(cast_formats_offered[0]);
_Static_assert(sizeof(cast_formats_offered) / sizeof(cast_formats_offered[0]) <=
	CAST_FORMATS_MAX, "CAST_FORMATS_MAX is too small");

bool cast_format_swaps_rb(enum cast_format format) {
	return format == CAST_FORMAT_RGBX || format == CAST_FORMAT_RGBA;
}

bool cast_format_has_alpha(enum cast_format format) {
	return format == CAST_FORMAT_BGRA || format == CAST_FORMAT_RGBA;
}

const char *cast_format_name(enum cast_format format) {
	switch (format) {
	case CAST_FORMAT_BGRX: return "BGRx";
	case CAST_FORMAT_BGRA: return "BGRA";
	case CAST_FORMAT_RGBX: return "RGBx";
	case CAST_FORMAT_RGBA: return "RGBA";
	case CAST_FORMAT_NONE: break;
	}
	return "none";
}

static bool offered(enum cast_format format) {
	for (size_t i = 0; i < cast_formats_offered_len; i++) {
		if (cast_formats_offered[i] == format) {
			return true;
		}
	}
	return false;
}

enum cast_format cast_format_choose(const enum cast_format *consumer, size_t n) {
	for (size_t i = 0; i < n; i++) {
		if (consumer[i] != CAST_FORMAT_NONE && offered(consumer[i])) {
			return consumer[i];
		}
	}
	return CAST_FORMAT_NONE;
}

uint64_t cast_frame_interval_ns(uint32_t num, uint32_t denom) {
	const uint64_t min_interval = 1000000000ull / CAST_MAX_FPS;
	if (num == 0 || denom == 0) {
		return min_interval;
	}
	uint64_t interval = 1000000000ull * denom / num;
	return interval < min_interval ? min_interval : interval;
}

uint32_t cast_format_drm(enum cast_format format) {
	/* Little-endian fourccs name the bytes from the highest down. */
	switch (format) {
	case CAST_FORMAT_BGRX: return 0x34325258; /* XR24, DRM_FORMAT_XRGB8888 */
	case CAST_FORMAT_BGRA: return 0x34325241; /* AR24, DRM_FORMAT_ARGB8888 */
	case CAST_FORMAT_RGBX: return 0x34324258; /* XB24, DRM_FORMAT_XBGR8888 */
	case CAST_FORMAT_RGBA: return 0x34324241; /* AB24, DRM_FORMAT_ABGR8888 */
	case CAST_FORMAT_NONE: break;
	}
	return 0;
}

static bool contains(const uint64_t *list, size_t n, uint64_t mod) {
	for (size_t i = 0; i < n; i++) {
		if (list[i] == mod) {
			return true;
		}
	}
	return false;
}

static void drop(uint64_t *list, size_t *n, uint64_t mod) {
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++) {
		if (list[i] != mod) {
			list[kept++] = list[i];
		}
	}
	*n = kept;
}

void cast_modifiers_init(struct cast_modifiers *m, const uint64_t *renderer, size_t n) {
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < n && m->n_offer < CAST_MAX_MODIFIERS; i++) {
		if (!contains(m->offer, m->n_offer, renderer[i])) {
			m->offer[m->n_offer++] = renderer[i];
		}
	}
	m->step = m->n_offer > 0 ? CAST_STEP_EXPLICIT : CAST_STEP_MEMFD;
}

void cast_modifiers_clear(struct cast_modifiers *m) {
	cast_modifiers_init(m, NULL, 0);
}

/* The first step from from on that the consumer's answer allows. */
static enum cast_modifier_step first_step(struct cast_modifiers *m,
		enum cast_modifier_step from) {
	if (from <= CAST_STEP_EXPLICIT && m->n_explicit > 0) {
		m->step = CAST_STEP_EXPLICIT;
	} else if (from <= CAST_STEP_IMPLICIT && m->implicit) {
		m->step = CAST_STEP_IMPLICIT;
	} else if (from <= CAST_STEP_LINEAR && m->linear) {
		m->step = CAST_STEP_LINEAR;
	} else {
		m->step = CAST_STEP_MEMFD;
		m->n_offer = 0;
	}
	return m->step;
}

enum cast_modifier_step cast_modifiers_answer(struct cast_modifiers *m,
		const uint64_t *consumer, size_t n) {
	m->n_explicit = 0;
	m->implicit = m->linear = false;
	for (size_t i = 0; i < n; i++) {
		uint64_t mod = consumer[i];
		if (!contains(m->offer, m->n_offer, mod)) {
			continue;
		}
		if (mod == CAST_MOD_INVALID) {
			m->implicit = true;
		} else if (mod == CAST_MOD_LINEAR) {
			m->linear = true;
		} else if (!contains(m->explicit, m->n_explicit, mod)) {
			m->explicit[m->n_explicit++] = mod;
		}
	}
	return first_step(m, CAST_STEP_EXPLICIT);
}

enum cast_modifier_step cast_modifiers_failed(struct cast_modifiers *m) {
	switch (m->step) {
	case CAST_STEP_EXPLICIT:
		/* The allocator does not say which failed: the whole set goes. */
		for (size_t i = 0; i < m->n_explicit; i++) {
			drop(m->offer, &m->n_offer, m->explicit[i]);
		}
		m->n_explicit = 0;
		return first_step(m, CAST_STEP_IMPLICIT);
	case CAST_STEP_IMPLICIT:
		drop(m->offer, &m->n_offer, CAST_MOD_INVALID);
		m->implicit = false;
		return first_step(m, CAST_STEP_LINEAR);
	case CAST_STEP_LINEAR:
		drop(m->offer, &m->n_offer, CAST_MOD_LINEAR);
		m->linear = false;
		return first_step(m, CAST_STEP_MEMFD);
	case CAST_STEP_MEMFD:
		break;
	}
	return first_step(m, CAST_STEP_MEMFD);
}

enum cast_modifier_step cast_modifier_step_of(uint64_t modifier) {
	return modifier == CAST_MOD_INVALID ? CAST_STEP_IMPLICIT :
		modifier == CAST_MOD_LINEAR ? CAST_STEP_LINEAR : CAST_STEP_EXPLICIT;
}

bool cast_modifiers_fixate(const struct cast_modifiers *m, uint64_t allocated,
		uint64_t *fixated) {
	switch (m->step) {
	case CAST_STEP_EXPLICIT:
		*fixated = allocated;
		return contains(m->explicit, m->n_explicit, allocated);
	case CAST_STEP_IMPLICIT:
		*fixated = CAST_MOD_INVALID;
		return true;
	case CAST_STEP_LINEAR:
		*fixated = CAST_MOD_LINEAR;
		return true;
	case CAST_STEP_MEMFD:
		break;
	}
	return false;
}
