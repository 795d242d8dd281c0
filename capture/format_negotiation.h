/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_FORMAT_NEGOTIATION_H
#define ORIEL_CAPTURE_FORMAT_NEGOTIATION_H

/*
 * Pure format and modifier negotiation for cast sinks (no wlroots, no
 * PipeWire): which pixel format to use from what a consumer accepts, the
 * framerate we may deliver, and the dma-buf DONT_FIXATE flow (offer the
 * modifiers the renderer can render to, test-allocate the consumer's
 * choice, drop what fails, fall back to implicit/linear, then to memfd).
 * capture/pipewire/pipewire_stream.c maps these to SPA types.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 32-bit formats, named by byte order in memory like SPA's video formats. */
enum cast_format {
	CAST_FORMAT_NONE = 0,
	CAST_FORMAT_BGRX,
	CAST_FORMAT_BGRA,
	CAST_FORMAT_RGBX,
	CAST_FORMAT_RGBA,
};

/* Our offer, most preferred first (BGRx is the output buffers' own order). */
#define CAST_FORMATS_MAX 4
extern const enum cast_format cast_formats_offered[];
extern const size_t cast_formats_offered_len;

/* Whether bytes 0 and 2 are swapped compared to BGRx. */
bool cast_format_swaps_rb(enum cast_format format);
/* Whether the 4th byte is alpha (must be written opaque). */
bool cast_format_has_alpha(enum cast_format format);
const char *cast_format_name(enum cast_format format);

/*
 * The format to use: the consumer's most preferred format that we offer,
 * or CAST_FORMAT_NONE. consumer lists formats in its order of preference.
 */
enum cast_format cast_format_choose(const enum cast_format *consumer, size_t n);

/*
 * The interval between frames, in nanoseconds, for a negotiated maximum
 * framerate num/denom, clamped to at most CAST_MAX_FPS; 0/x or a bad
 * fraction means CAST_MAX_FPS.
 */
#define CAST_MAX_FPS 60
uint64_t cast_frame_interval_ns(uint32_t num, uint32_t denom);

/* The DRM fourcc with the same byte order (BGRx is DRM_FORMAT_XRGB8888). */
uint32_t cast_format_drm(enum cast_format format);

/* DRM_FORMAT_MOD_LINEAR and DRM_FORMAT_MOD_INVALID (implicit modifier). */
#define CAST_MOD_LINEAR 0ull
#define CAST_MOD_INVALID 0x00ffffffffffffffull

/*
 * The dma-buf path's modifier negotiation for one format (PipeWire's
 * DONT_FIXATE flow):
 *  1. we offer the modifiers the renderer can render to, as a choice the
 *     consumer need not fixate (cast_modifiers_init, offer[]);
 *  2. the consumer answers with the ones it takes (cast_modifiers_answer);
 *  3. we test-allocate, in this order and each only when the consumer
 *     takes it: its explicit modifiers as one set, the implicit modifier
 *     (INVALID), LINEAR. A failure (cast_modifiers_failed) drops what
 *     failed from our offer and moves to the next step;
 *  4. the first allocation that works is fixated (cast_modifiers_fixate)
 *     and offered alone; when none works, only memfd is left to offer.
 */
enum cast_modifier_step {
	CAST_STEP_EXPLICIT, /* allocate with explicit[] (the allocator picks) */
	CAST_STEP_IMPLICIT, /* allocate with the driver's implicit layout */
	CAST_STEP_LINEAR,
	CAST_STEP_MEMFD,    /* no dma-buf: memfd buffers */
};

#define CAST_MAX_MODIFIERS 64

struct cast_modifiers {
	uint64_t offer[CAST_MAX_MODIFIERS]; /* what we offer now; none: memfd */
	size_t n_offer;
	/* The consumer's answer, still to be tried. */
	uint64_t explicit[CAST_MAX_MODIFIERS];
	size_t n_explicit;
	bool implicit, linear;
	enum cast_modifier_step step;
};

/*
 * Starts with the renderer's modifiers (duplicates dropped, at most
 * CAST_MAX_MODIFIERS). With none (no render node) nothing is offered.
 */
void cast_modifiers_init(struct cast_modifiers *m, const uint64_t *renderer, size_t n);
/* Offers nothing from now on: memfd only. */
void cast_modifiers_clear(struct cast_modifiers *m);
/*
 * The consumer's modifiers (a choice's values, the default included): keeps
 * those we offer, and returns the first step to try.
 */
enum cast_modifier_step cast_modifiers_answer(struct cast_modifiers *m,
	const uint64_t *consumer, size_t n);
/*
 * The current step's test allocation failed: drops what it tried from the
 * offer, and returns the next step. Reaching CAST_STEP_MEMFD clears the offer.
 */
enum cast_modifier_step cast_modifiers_failed(struct cast_modifiers *m);
/* The step that allocates a fixated modifier (INVALID: implicit). */
enum cast_modifier_step cast_modifier_step_of(uint64_t modifier);
/*
 * The current step's allocation worked and got modifier allocated: the
 * modifier to fixate (the step's own for implicit and linear). False when
 * the allocator gave one the consumer does not take: treat as a failure.
 */
bool cast_modifiers_fixate(const struct cast_modifiers *m, uint64_t allocated,
	uint64_t *fixated);

#endif
