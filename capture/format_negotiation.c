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

static bool contains(const uint64_t *list, size_t n, uint64_t mod) {
	for (size_t i = 0; i < n; i++) {
		if (list[i] == mod) {
			return true;
		}
	}
	return false;
}

void cast_modifiers_init(struct cast_modifier_state *state,
		const uint64_t *renderer, size_t n) {
	memset(state, 0, sizeof(*state));
	for (size_t i = 0; i < n && state->n_modifiers < CAST_MAX_MODIFIERS; i++) {
		/* Implicit and linear are fallbacks of their own, tried last. */
		if (renderer[i] == CAST_MOD_INVALID ||
				contains(state->modifiers, state->n_modifiers, renderer[i])) {
			continue;
		}
		state->modifiers[state->n_modifiers++] = renderer[i];
	}
	state->kind = n > 0 ? CAST_BUFFER_DMABUF : CAST_BUFFER_MEMFD;
	if (state->kind == CAST_BUFFER_DMABUF && state->n_modifiers == 0) {
		/* Only implicit was listed: start there. */
		state->tried_implicit = false;
	}
}

/* Moves to the next fallback once no explicit modifier is left. */
static enum cast_buffer_kind advance(struct cast_modifier_state *state) {
	if (state->kind == CAST_BUFFER_MEMFD || state->n_modifiers > 0) {
		return state->kind;
	}
	if (!state->tried_implicit) {
		state->tried_implicit = true;
		state->modifiers[0] = CAST_MOD_INVALID;
		state->n_modifiers = 1;
		return state->kind;
	}
	if (!state->tried_linear) {
		state->tried_linear = true;
		state->modifiers[0] = CAST_MOD_LINEAR;
		state->n_modifiers = 1;
		return state->kind;
	}
	state->kind = CAST_BUFFER_MEMFD;
	return state->kind;
}

size_t cast_modifiers_answer(struct cast_modifier_state *state,
		const uint64_t *consumer, size_t n) {
	size_t kept = 0;
	for (size_t i = 0; i < state->n_modifiers; i++) {
		if (contains(consumer, n, state->modifiers[i])) {
			state->modifiers[kept++] = state->modifiers[i];
		}
	}
	state->n_modifiers = kept;
	if (kept == 0) {
		advance(state);
	}
	return state->kind == CAST_BUFFER_DMABUF ? state->n_modifiers : 0;
}

enum cast_buffer_kind cast_modifiers_failed(struct cast_modifier_state *state,
		uint64_t failed) {
	if (state->kind == CAST_BUFFER_MEMFD) {
		return state->kind;
	}
	bool fallback = state->n_modifiers == 1 &&
		(state->modifiers[0] == CAST_MOD_INVALID ||
		 state->modifiers[0] == CAST_MOD_LINEAR) &&
		(state->tried_implicit || state->tried_linear);
	if (fallback || failed == CAST_MOD_INVALID) {
		state->n_modifiers = 0;
	} else {
		size_t kept = 0;
		for (size_t i = 0; i < state->n_modifiers; i++) {
			if (state->modifiers[i] != failed) {
				state->modifiers[kept++] = state->modifiers[i];
			}
		}
		state->n_modifiers = kept;
	}
	return advance(state);
}

bool cast_modifiers_explicit(const struct cast_modifier_state *state) {
	return state->kind == CAST_BUFFER_DMABUF && state->n_modifiers > 0 &&
		!(state->n_modifiers == 1 && (state->tried_implicit || state->tried_linear) &&
		  (state->modifiers[0] == CAST_MOD_INVALID ||
		   state->modifiers[0] == CAST_MOD_LINEAR));
}
