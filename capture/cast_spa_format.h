/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_CAST_SPA_FORMAT_H
#define ORIEL_CAPTURE_CAST_SPA_FORMAT_H

/*
 * The EnumFormat pods a cast offers: the plain one (every format, memfd
 * buffers) and, on the dma-buf path, one per format with a modifier: a
 * choice the consumer need not fixate (DONT_FIXATE), or the one we fixated.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <spa/pod/builder.h>
#include "capture/format_negotiation.h"

uint32_t cast_spa_from_format(enum cast_format format);
enum cast_format cast_format_from_spa(uint32_t format);

/* What every offer shares: one size, or (range) any up to the largest. */
struct cast_spa_size {
	int width, height;
	bool range;
};

/* Every format of cast_formats_offered, without a modifier: memfd buffers. */
const struct spa_pod *cast_spa_format_plain(struct spa_pod_builder *b,
	const struct cast_spa_size *size);

/*
 * format with modifiers: a DONT_FIXATE choice of mods[n], or, when fixated,
 * mods[0] alone. NULL when the builder ran out of space.
 */
const struct spa_pod *cast_spa_format_dmabuf(struct spa_pod_builder *b,
	const struct cast_spa_size *size, enum cast_format format,
	const uint64_t *mods, size_t n, bool fixated);

/*
 * The consumer's modifiers in a format (all values of a choice, or the one
 * fixed value): returns how many were stored in out (at most max), sets
 * *dont_fixate when it is a choice we must fixate. -1 when it has none.
 */
int cast_spa_format_modifiers(const struct spa_pod *format, uint64_t *out, size_t max,
	bool *dont_fixate);

#endif
