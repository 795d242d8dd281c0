/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_XWM_ICCCM_HINTS_H
#define ORIEL_XWM_ICCCM_HINTS_H

/*
 * ICCCM WM_NORMAL_HINTS arithmetic. Pure: no X or wlroots calls, so unit
 * tests link it directly.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* WM_SIZE_HINTS.flags (ICCCM 4.1.2.3). */
#define ICCCM_US_POSITION (1u << 0)
#define ICCCM_US_SIZE (1u << 1)
#define ICCCM_P_POSITION (1u << 2)
#define ICCCM_P_SIZE (1u << 3)
#define ICCCM_P_MIN_SIZE (1u << 4)
#define ICCCM_P_MAX_SIZE (1u << 5)
#define ICCCM_P_RESIZE_INC (1u << 6)
#define ICCCM_P_ASPECT (1u << 7)
#define ICCCM_P_BASE_SIZE (1u << 8)
#define ICCCM_P_WIN_GRAVITY (1u << 9)

/* The decoded hints; fields whose flag is not set are ignored. */
struct icccm_size_hints {
	uint32_t flags;
	int32_t min_width, min_height;
	int32_t max_width, max_height;
	int32_t width_inc, height_inc;
	int32_t base_width, base_height;
	int32_t min_aspect_num, min_aspect_den;
	int32_t max_aspect_num, max_aspect_den;
	uint32_t win_gravity;
};

/*
 * The size closest to *width x *height (at most it, when it must shrink)
 * that the hints allow: min/max clamps, base + n * increment, and the
 * aspect range, as ICCCM 4.1.2.3 describes. Nonsense values from the
 * client (negative, zero denominators, min > max) are ignored. The result
 * is always at least 1x1.
 */
void icccm_constrain_size(const struct icccm_size_hints *hints, int *width,
	int *height);

/* WM_HINTS (ICCCM 4.1.2.4): flags and initial_state. */
#define ICCCM_HINT_INPUT (1u << 0)
#define ICCCM_HINT_STATE (1u << 1)
#define ICCCM_HINT_URGENCY (1u << 8)
#define ICCCM_STATE_NORMAL 1
#define ICCCM_STATE_ICONIC 3

/* Whether the window asks to start iconic (minimized). */
bool icccm_hints_start_iconic(uint32_t flags, int32_t initial_state);
/* Whether the urgency flag is set. */
bool icccm_hints_urgent(uint32_t flags);

/*
 * Whether WM_CLIENT_MACHINE (len bytes, not NUL-terminated) names this
 * host: the same name, or the same up to the first dot of either (a short
 * name against a fully qualified one). Only then is the window's pid one
 * of ours to kill.
 */
bool icccm_client_machine_is_local(const char *machine, size_t len, const char *hostname);

/* _NET_WM_WINDOW_TYPE, the types oriel has a policy for. */
enum ewmh_window_type {
	EWMH_TYPE_NORMAL,
	EWMH_TYPE_DIALOG,
	EWMH_TYPE_UTILITY,
	EWMH_TYPE_SPLASH,
	EWMH_TYPE_NOTIFICATION,
	EWMH_TYPE_DOCK,
	EWMH_TYPE_MENU,         /* also popup and dropdown menus */
	EWMH_TYPE_TOOLTIP,
	EWMH_TYPE_COMBO,
	EWMH_TYPE_TOOLBAR,
	EWMH_TYPE_DESKTOP,
};

enum ewmh_placement {
	EWMH_PLACE_DEFAULT,      /* cascade, or the requested position */
	EWMH_PLACE_CENTER,       /* centered over the parent, else the output */
	EWMH_PLACE_CORNER,       /* top-right corner of the usable area */
	EWMH_PLACE_AS_REQUESTED, /* where the client put it (docks) */
};

/* Where the window stacks unless its _NET_WM_STATE says ABOVE or BELOW. */
enum ewmh_layer {
	EWMH_LAYER_NORMAL,
	EWMH_LAYER_ABOVE, /* docks and panels stay over windows */
	EWMH_LAYER_BELOW, /* the desktop stays under them */
};

struct ewmh_type_policy {
	bool decorated;
	bool focus_on_map;
	enum ewmh_placement placement;
	enum ewmh_layer layer;
};

void ewmh_window_type_policy(enum ewmh_window_type type, struct ewmh_type_policy *policy);

/*
 * _NET_WM_STRUT (4 values) or _NET_WM_STRUT_PARTIAL (12 values), in root
 * coordinates: space reserved at each edge of the root window, and for
 * the partial form the range along that edge. n is the number of values
 * the property holds; anything else but 4 or 12 (or more) is refused.
 */
struct ewmh_strut {
	uint32_t left, right, top, bottom;
	uint32_t left_start_y, left_end_y, right_start_y, right_end_y;
	uint32_t top_start_x, top_end_x, bottom_start_x, bottom_end_x;
};
bool ewmh_decode_strut(const uint32_t *values, uint32_t n, int root_width,
	int root_height, struct ewmh_strut *strut);

/*
 * _NET_MOVERESIZE_WINDOW data.l[0]: gravity in bits 0-7, which of x, y,
 * width, height are given in bits 8-11, source in bits 12-13.
 */
struct ewmh_moveresize {
	int gravity; /* 0 means the window's own win_gravity */
	bool has_x, has_y, has_width, has_height;
	int x, y, width, height;
};
void ewmh_decode_moveresize_window(const uint32_t data[5], struct ewmh_moveresize *out);

/*
 * Focus-stealing prevention for a _NET_ACTIVE_WINDOW request: source 2
 * (pager, the user) always wins; an application's request (source 1)
 * wins only with a timestamp no older than the focused window's last
 * user time, or when nothing has focus. A pre-1.3 request (source 0)
 * without a timestamp comes from a tool acting for the user (wmctrl -a)
 * and wins; with one, it is judged as an application's. Times are X
 * server times and wrap around.
 */
bool ewmh_activation_allowed(uint32_t source, uint32_t timestamp,
	bool have_focused, bool focused_has_time, uint32_t focused_user_time);

/* _NET_WM_STATE atoms oriel implements itself, as bits. */
#define EWMH_STATE_ABOVE (1u << 0)
#define EWMH_STATE_BELOW (1u << 1)
#define EWMH_STATE_STICKY (1u << 2)
#define EWMH_STATE_SKIP_TASKBAR (1u << 3)
#define EWMH_STATE_SKIP_PAGER (1u << 4)
#define EWMH_STATE_COUNT 5
/*
 * States wlroots' XWM implements but loses when the client sets them
 * before mapping (it rewrites the property as the window maps, before it
 * reads it): oriel remembers them, to apply at map. Never written back.
 */
#define EWMH_STATE_INITIAL_FULLSCREEN (1u << 8)
#define EWMH_STATE_INITIAL_MAXIMIZED_VERT (1u << 9)
#define EWMH_STATE_INITIAL_MAXIMIZED_HORZ (1u << 10)
#define EWMH_STATE_INITIAL_MASK (EWMH_STATE_INITIAL_FULLSCREEN | \
	EWMH_STATE_INITIAL_MAXIMIZED_VERT | EWMH_STATE_INITIAL_MAXIMIZED_HORZ)

/*
 * A _NET_WM_STATE request: action 0 removes state (one bit), 1 adds it,
 * 2 toggles it. ABOVE and BELOW exclude each other. Other actions change
 * nothing. Returns the new states.
 */
uint32_t ewmh_state_update(uint32_t states, uint32_t action, uint32_t state);

#endif
