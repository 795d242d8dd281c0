/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_PIPEWIRE_AUDIO_SINK_H
#define ORIEL_CAPTURE_PIPEWIRE_AUDIO_SINK_H

/*
 * "Remote audio (oriel)": a PipeWire sink that exists while remote clients
 * take the session's sound, the session's default sink meanwhile (streams
 * that follow the default move to it). What is played into it reaches
 * oriel's loop as PCM; silence does not. PipeWire runs it on a thread of
 * its own, so a busy loop drops old sound instead of stalling the graph.
 */

#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>

#define AUDIO_SINK_RATE 48000
#define AUDIO_SINK_CHANNELS 2 /* interleaved signed 16-bit, left first */

struct audio_sink;

/*
 * Called in the loop with what was played since its last call; with no
 * samples (NULL, 0) once silence follows sound.
 */
typedef void (*audio_sink_pcm_fn)(void *data, const int16_t *samples, size_t frames);

/* Connects to the session's PipeWire; NULL (logged) without one. */
struct audio_sink *audio_sink_create(struct wl_event_loop *loop, audio_sink_pcm_fn pcm,
	void *data);
/* Gives the default back to the sink that had it. NULL is a no-op. */
void audio_sink_destroy(struct audio_sink *sink);

#endif
