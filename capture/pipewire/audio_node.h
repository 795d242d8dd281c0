/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_PIPEWIRE_AUDIO_NODE_H
#define ORIEL_CAPTURE_PIPEWIRE_AUDIO_NODE_H

/*
 * A PipeWire audio node of oriel's (a sink or a source for remote
 * clients) that is the session's default of its kind while it exists:
 * a pw_stream on a pw_thread_loop of its own, and WirePlumber's
 * configured default in the "default" metadata (what pactl
 * set-default-sink writes), given back when the node goes.
 */

#include <stdbool.h>
#include <stdint.h>
#include <pipewire/pipewire.h>

struct audio_node_desc {
	const char *description; /* what people see: "Remote audio (oriel)" */
	const char *name;        /* node.name; oriel's pid is added */
	const char *media_class; /* "Audio/Sink" or "Audio/Source" */
	const char *default_key; /* "default.configured.audio.sink" or ...source */
	enum spa_direction direction; /* SPA_DIRECTION_INPUT takes sound */
	uint32_t rate, channels;      /* 16-bit signed samples, interleaved */
	/* On PipeWire's thread, for each quantum. */
	void (*process)(void *data, struct pw_stream *stream);
	void *data;
};

struct audio_node;

/* Connects to the session's PipeWire; NULL (logged) without one. */
struct audio_node *audio_node_create(const struct audio_node_desc *desc);
/* Gives the default back and stops the thread. NULL is a no-op. */
void audio_node_destroy(struct audio_node *node);

/* Nanoseconds of CPU this thread has used (for statistics). */
int64_t audio_thread_cpu_ns(void);

#endif
