#include <limits.h>
#include "xwm/icccm_hints.h"

static int clamp_min(int v, int lo) {
	return v < lo ? lo : v;
}

/* Largest base + n * inc <= v (with n >= 0), when an increment applies. */
static int snap(int v, int base, int inc) {
	if (inc <= 1 || v < base) {
		return v;
	}
	return base + (v - base) / inc * inc;
}

void icccm_constrain_size(const struct icccm_size_hints *hints, int *width,
		int *height) {
	int w = *width, h = *height;
	if (!hints) {
		*width = clamp_min(w, 1);
		*height = clamp_min(h, 1);
		return;
	}
	uint32_t flags = hints->flags;
	int min_w = 1, min_h = 1, max_w = INT_MAX, max_h = INT_MAX;
	int base_w = 0, base_h = 0;
	/* ICCCM: a missing min size defaults to the base size and vice versa. */
	if (flags & ICCCM_P_MIN_SIZE) {
		min_w = clamp_min(hints->min_width, 1);
		min_h = clamp_min(hints->min_height, 1);
	} else if (flags & ICCCM_P_BASE_SIZE) {
		min_w = clamp_min(hints->base_width, 1);
		min_h = clamp_min(hints->base_height, 1);
	}
	if (flags & ICCCM_P_BASE_SIZE) {
		base_w = clamp_min(hints->base_width, 0);
		base_h = clamp_min(hints->base_height, 0);
	} else if (flags & ICCCM_P_MIN_SIZE) {
		base_w = clamp_min(hints->min_width, 0);
		base_h = clamp_min(hints->min_height, 0);
	}
	if ((flags & ICCCM_P_MAX_SIZE) && hints->max_width > 0 && hints->max_height > 0) {
		max_w = hints->max_width < min_w ? min_w : hints->max_width;
		max_h = hints->max_height < min_h ? min_h : hints->max_height;
	}
	int inc_w = 1, inc_h = 1;
	if (flags & ICCCM_P_RESIZE_INC) {
		inc_w = hints->width_inc > 0 ? hints->width_inc : 1;
		inc_h = hints->height_inc > 0 ? hints->height_inc : 1;
	}

	w = w < min_w ? min_w : (w > max_w ? max_w : w);
	h = h < min_h ? min_h : (h > max_h ? max_h : h);

	/*
	 * Aspect ratios apply to the size minus the base size (ICCCM). Each
	 * bound is honoured on its own when it makes sense.
	 */
	if (flags & ICCCM_P_ASPECT) {
		int sub_w = (flags & ICCCM_P_BASE_SIZE) ? base_w : 0;
		int sub_h = (flags & ICCCM_P_BASE_SIZE) ? base_h : 0;
		long long aw = w - sub_w, ah = h - sub_h;
		long long min_n = hints->min_aspect_num, min_d = hints->min_aspect_den;
		long long max_n = hints->max_aspect_num, max_d = hints->max_aspect_den;
		if (aw > 0 && ah > 0) {
			if (min_n > 0 && min_d > 0 && aw * min_d < ah * min_n) {
				/* Too narrow: shrink the height. */
				ah = aw * min_d / min_n;
			} else if (max_n > 0 && max_d > 0 && aw * max_d > ah * max_n) {
				/* Too wide: shrink the width. */
				aw = ah * max_n / max_d;
			}
			w = (int)aw + sub_w;
			h = (int)ah + sub_h;
		}
	}

	w = snap(w, base_w, inc_w);
	h = snap(h, base_h, inc_h);
	/* Snapping down may cross the minimum: go up by whole increments. */
	while (w < min_w) {
		w += inc_w;
	}
	while (h < min_h) {
		h += inc_h;
	}
	*width = clamp_min(w, 1);
	*height = clamp_min(h, 1);
}
