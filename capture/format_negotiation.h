#ifndef ORIEL_CAPTURE_FORMAT_NEGOTIATION_H
#define ORIEL_CAPTURE_FORMAT_NEGOTIATION_H

/*
 * Pure format and modifier negotiation for cast sinks (no wlroots, no
 * PipeWire): which pixel format to use from what a consumer accepts, the
 * framerate we may deliver, and the dma-buf DONT_FIXATE flow (offer the
 * modifiers the renderer can render to, test-allocate the consumer's
 * choice, drop what fails, fall back to implicit/linear, then to memfd).
 * capture/pipewire_stream.c maps these to SPA types.
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

/* DRM_FORMAT_MOD_LINEAR and DRM_FORMAT_MOD_INVALID (implicit modifier). */
#define CAST_MOD_LINEAR 0ull
#define CAST_MOD_INVALID 0x00ffffffffffffffull

/*
 * The dma-buf path's negotiation state for one format. The steps:
 *  1. offer: the renderer's modifiers, with DONT_FIXATE (cast_modifiers_offer);
 *  2. the consumer answers with the subset it takes (cast_modifiers_answer);
 *  3. we test-allocate with that list; on failure the modifier the
 *     allocator tried is dropped (cast_modifiers_failed) and we offer again;
 *  4. when no explicit modifier is left, implicit (INVALID) then LINEAR are
 *     tried, then memfd.
 */
enum cast_buffer_kind {
	CAST_BUFFER_DMABUF,
	CAST_BUFFER_MEMFD,
};

#define CAST_MAX_MODIFIERS 64

struct cast_modifier_state {
	uint64_t modifiers[CAST_MAX_MODIFIERS]; /* what we offer now */
	size_t n_modifiers;
	bool tried_implicit, tried_linear;
	enum cast_buffer_kind kind;
};

/*
 * Starts the flow with the renderer's modifiers (duplicates dropped, at
 * most CAST_MAX_MODIFIERS). With none (no render node), the kind is memfd.
 */
void cast_modifiers_init(struct cast_modifier_state *state,
	const uint64_t *renderer, size_t n);
/*
 * The consumer's fixated/accepted list: keeps ours that are in it (order of
 * ours). Returns the number left; 0 moves on to the fallbacks.
 */
size_t cast_modifiers_answer(struct cast_modifier_state *state,
	const uint64_t *consumer, size_t n);
/*
 * Test-allocation with the current list failed for modifier failed (the
 * one the allocator picked; CAST_MOD_INVALID when it cannot tell: then the
 * whole explicit list is dropped). Advances to the next thing to offer:
 * the rest of the list, then implicit, then linear, then memfd. Returns
 * the kind to offer next.
 */
enum cast_buffer_kind cast_modifiers_failed(struct cast_modifier_state *state,
	uint64_t failed);
/* Whether the state still offers dma-bufs with an explicit list. */
bool cast_modifiers_explicit(const struct cast_modifier_state *state);

#endif
