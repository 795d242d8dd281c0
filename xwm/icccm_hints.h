#ifndef ORIEL_XWM_ICCCM_HINTS_H
#define ORIEL_XWM_ICCCM_HINTS_H

/*
 * ICCCM WM_NORMAL_HINTS arithmetic. Pure: no X or wlroots calls, so unit
 * tests link it directly.
 */

#include <stdbool.h>
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

#endif
