/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdint.h>
#include <string.h>
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

bool icccm_hints_start_iconic(uint32_t flags, int32_t initial_state) {
	return (flags & ICCCM_HINT_STATE) && initial_state == ICCCM_STATE_ICONIC;
}

bool icccm_hints_urgent(uint32_t flags) {
	return (flags & ICCCM_HINT_URGENCY) != 0;
}

/* The length of the name's first label (up to the first dot). */
static size_t first_label(const char *name, size_t len) {
	const char *dot = memchr(name, '.', len);
	return dot ? (size_t)(dot - name) : len;
}

bool icccm_client_machine_is_local(const char *machine, size_t len, const char *hostname) {
	/* STRING properties may carry a trailing NUL. */
	while (len > 0 && machine[len - 1] == '\0') {
		len--;
	}
	size_t host_len = strlen(hostname);
	if (len == 0 || host_len == 0 || memchr(machine, '\0', len)) {
		return false;
	}
	if (len == host_len && memcmp(machine, hostname, len) == 0) {
		return true;
	}
	size_t a = first_label(machine, len), b = first_label(hostname, host_len);
	/* One side is a bare name and the other starts with it. */
	return (a == len || b == host_len) && a == b && a > 0 &&
		memcmp(machine, hostname, a) == 0;
}

void ewmh_window_type_policy(enum ewmh_window_type type, struct ewmh_type_policy *policy) {
	*policy = (struct ewmh_type_policy){
		.decorated = true,
		.focus_on_map = true,
		.placement = EWMH_PLACE_DEFAULT,
		.layer = EWMH_LAYER_NORMAL,
	};
	switch (type) {
	case EWMH_TYPE_NORMAL:
	case EWMH_TYPE_TOOLBAR:
		break;
	case EWMH_TYPE_DIALOG:
	case EWMH_TYPE_UTILITY:
		policy->placement = EWMH_PLACE_CENTER;
		break;
	case EWMH_TYPE_SPLASH:
		policy->decorated = false;
		policy->focus_on_map = false;
		policy->placement = EWMH_PLACE_CENTER;
		break;
	case EWMH_TYPE_NOTIFICATION:
		policy->decorated = false;
		policy->focus_on_map = false;
		policy->placement = EWMH_PLACE_CORNER;
		break;
	case EWMH_TYPE_DOCK:
	case EWMH_TYPE_DESKTOP:
		policy->decorated = false;
		policy->focus_on_map = false;
		policy->placement = EWMH_PLACE_AS_REQUESTED;
		policy->layer = type == EWMH_TYPE_DOCK ? EWMH_LAYER_ABOVE : EWMH_LAYER_BELOW;
		break;
	case EWMH_TYPE_MENU:
	case EWMH_TYPE_TOOLTIP:
	case EWMH_TYPE_COMBO:
		policy->decorated = false;
		policy->placement = EWMH_PLACE_AS_REQUESTED;
		break;
	}
}

static uint32_t clamp_u(uint32_t v, int limit) {
	return limit > 0 && v > (uint32_t)limit ? (uint32_t)limit : v;
}

bool ewmh_decode_strut(const uint32_t *values, uint32_t n, int root_width,
		int root_height, struct ewmh_strut *strut) {
	if (!values || n < 4) {
		return false;
	}
	*strut = (struct ewmh_strut){
		.left = clamp_u(values[0], root_width),
		.right = clamp_u(values[1], root_width),
		.top = clamp_u(values[2], root_height),
		.bottom = clamp_u(values[3], root_height),
	};
	uint32_t max_y = root_height > 0 ? (uint32_t)root_height - 1 : UINT32_MAX;
	uint32_t max_x = root_width > 0 ? (uint32_t)root_width - 1 : UINT32_MAX;
	if (n >= 12) {
		strut->left_start_y = values[4];
		strut->left_end_y = values[5];
		strut->right_start_y = values[6];
		strut->right_end_y = values[7];
		strut->top_start_x = values[8];
		strut->top_end_x = values[9];
		strut->bottom_start_x = values[10];
		strut->bottom_end_x = values[11];
	} else {
		/* The plain form spans the whole edge. */
		strut->left_end_y = strut->right_end_y = max_y;
		strut->top_end_x = strut->bottom_end_x = max_x;
	}
	/* An empty or reversed range reserves nothing on that edge. */
	if (strut->left_end_y < strut->left_start_y) {
		strut->left = 0;
	}
	if (strut->right_end_y < strut->right_start_y) {
		strut->right = 0;
	}
	if (strut->top_end_x < strut->top_start_x) {
		strut->top = 0;
	}
	if (strut->bottom_end_x < strut->bottom_start_x) {
		strut->bottom = 0;
	}
	return true;
}

void ewmh_decode_moveresize_window(const uint32_t data[5], struct ewmh_moveresize *out) {
	uint32_t flags = data[0];
	*out = (struct ewmh_moveresize){
		.gravity = (int)(flags & 0xff),
		.has_x = flags & (1u << 8),
		.has_y = flags & (1u << 9),
		.has_width = flags & (1u << 10),
		.has_height = flags & (1u << 11),
		/* Coordinates are signed 32-bit values in a CARDINAL slot. */
		.x = (int32_t)data[1],
		.y = (int32_t)data[2],
		.width = (int32_t)data[3],
		.height = (int32_t)data[4],
	};
	if (out->gravity > 10) {
		out->gravity = 0;
	}
	if (out->has_width && out->width < 1) {
		out->has_width = false;
	}
	if (out->has_height && out->height < 1) {
		out->has_height = false;
	}
}

bool ewmh_activation_allowed(uint32_t source, uint32_t timestamp,
		bool have_focused, bool focused_has_time, uint32_t focused_user_time) {
	if (source == 2 || !have_focused) {
		return true;
	}
	if (timestamp == 0 && source == 0) {
		/*
		 * Pre-1.3 EWMH senders (wmctrl -a, old pagers) give neither a
		 * source nor a time: they act for the user.
		 */
		return true;
	}
	if (timestamp == 0) {
		/* CurrentTime from an app: no proof the user asked for it. */
		return false;
	}
	if (!focused_has_time) {
		return true;
	}
	/* X time wraps: timestamp is "not older" when the distance is small. */
	return (int32_t)(timestamp - focused_user_time) >= 0;
}

uint32_t ewmh_state_update(uint32_t states, uint32_t action, uint32_t state) {
	bool on;
	switch (action) {
	case 0:
		on = false;
		break;
	case 1:
		on = true;
		break;
	case 2:
		on = !(states & state);
		break;
	default:
		return states;
	}
	if (!on) {
		return states & ~state;
	}
	if (state & EWMH_STATE_ABOVE) {
		states &= ~EWMH_STATE_BELOW;
	}
	if (state & EWMH_STATE_BELOW) {
		states &= ~EWMH_STATE_ABOVE;
	}
	return states | state;
}
