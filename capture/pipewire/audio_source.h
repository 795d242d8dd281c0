/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_PIPEWIRE_AUDIO_SOURCE_H
#define ORIEL_CAPTURE_PIPEWIRE_AUDIO_SOURCE_H

/*
 * "Remote microphone (oriel)": a PipeWire source fed with a remote
 * client's microphone, the session's default source while it exists.
 * Between what the client sent, it gives silence.
 */

#include <stddef.h>
#include <stdint.h>

struct audio_source;

/* 16-bit signed samples, interleaved; channels 1 or 2. NULL (logged) without PipeWire. */
struct audio_source *audio_source_create(uint32_t rate, uint32_t channels);
void audio_source_destroy(struct audio_source *source);
/* What the microphone heard; from any thread. */
void audio_source_push(struct audio_source *source, const int16_t *samples, size_t frames);

#endif
