/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_CAST_GBM_H
#define ORIEL_CAPTURE_CAST_GBM_H

/*
 * The dma-buf allocator of PipeWire casts: a gbm device on the renderer's
 * DRM fd, one per renderer, shared by its casts. Without a DRM fd (pixman,
 * no GPU) there is none and casts use memfd buffers only.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "capture/format_negotiation.h"

struct cast_gbm;
struct gbm_bo;
struct wlr_renderer;

/* A reference to renderer's device; NULL when it has no DRM fd. */
struct cast_gbm *cast_gbm_get(struct wlr_renderer *renderer);
void cast_gbm_put(struct cast_gbm *gbm);

/*
 * The modifiers the renderer can render drm_format to (implicit and linear
 * included when it can), at most max; 0 when it cannot render it at all.
 */
size_t cast_gbm_render_modifiers(struct cast_gbm *gbm, uint32_t drm_format,
	uint64_t *out, size_t max);

/*
 * A buffer the renderer draws into: for step CAST_STEP_EXPLICIT one of
 * mods[n] (the driver picks), for CAST_STEP_IMPLICIT the driver's own
 * layout, for CAST_STEP_LINEAR linear. NULL when the driver cannot.
 */
struct gbm_bo *cast_gbm_bo_create(struct cast_gbm *gbm, uint32_t drm_format,
	int width, int height, enum cast_modifier_step step, const uint64_t *mods, size_t n);

/* A buffer with a fixated modifier (CAST_MOD_INVALID: implicit). */
struct gbm_bo *cast_gbm_bo_create_fixated(struct cast_gbm *gbm, uint32_t drm_format,
	int width, int height, uint64_t modifier);

/*
 * Test allocation for a step: true when it works, with the modifier the
 * buffer got and its plane count.
 */
bool cast_gbm_test(struct cast_gbm *gbm, uint32_t drm_format, int width, int height,
	enum cast_modifier_step step, const uint64_t *mods, size_t n,
	uint64_t *modifier, int *planes);

#endif
