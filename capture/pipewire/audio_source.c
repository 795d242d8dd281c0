/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <pipewire/pipewire.h>
#include <wlr/util/log.h>
#include "capture/pipewire/audio_node.h"
#include "capture/pipewire/audio_source.h"
#include "common/util.h"

/*
 * The source is an audio_node of class Audio/Source. What the client
 * sends waits in a ring that PipeWire's thread empties each quantum,
 * filling with silence where nothing came. The ring holds at most
 * MAX_WAIT_MS: sound that came faster than it is taken loses its oldest
 * part, so the microphone never lags behind the client.
 */

#define MAX_WAIT_MS 200
/* A quantum's frames when PipeWire does not say (pw_buffer.requested). */
#define DEFAULT_QUANTUM_MS 10

struct audio_source {
	struct audio_node *node;
	uint32_t rate, channels;
	pthread_mutex_t lock;
	int16_t *ring;
	size_t ring_frames, head, count;
	uint64_t dropped;
};

static size_t frame_bytes(const struct audio_source *source) {
	return source->channels * sizeof(int16_t);
}

void audio_source_push(struct audio_source *source, const int16_t *samples, size_t frames) {
	size_t size = source->ring_frames;
	if (frames > size) {
		samples += (frames - size) * source->channels;
		frames = size;
	}
	pthread_mutex_lock(&source->lock);
	if (source->count + frames > size) {
		size_t lose = source->count + frames - size;
		source->head = (source->head + lose) % size;
		source->count -= lose;
		source->dropped += lose;
	}
	size_t tail = (source->head + source->count) % size;
	size_t first = frames < size - tail ? frames : size - tail;
	memcpy(source->ring + tail * source->channels, samples, first * frame_bytes(source));
	memcpy(source->ring, samples + first * source->channels,
		(frames - first) * frame_bytes(source));
	source->count += frames;
	pthread_mutex_unlock(&source->lock);
}

/* PipeWire's thread: a quantum of what came, then silence. */
static void process(void *data, struct pw_stream *stream) {
	struct audio_source *source = data;
	struct pw_buffer *buffer = pw_stream_dequeue_buffer(stream);
	if (!buffer) {
		return;
	}
	struct spa_data *d = &buffer->buffer->datas[0];
	if (!d->data) {
		pw_stream_queue_buffer(stream, buffer);
		return;
	}
	size_t stride = frame_bytes(source);
	size_t frames = buffer->requested ? buffer->requested :
		source->rate * DEFAULT_QUANTUM_MS / 1000;
	if (frames > d->maxsize / stride) {
		frames = d->maxsize / stride;
	}
	int16_t *out = d->data;
	pthread_mutex_lock(&source->lock);
	size_t have = source->count < frames ? source->count : frames;
	size_t size = source->ring_frames;
	size_t first = have < size - source->head ? have : size - source->head;
	memcpy(out, source->ring + source->head * source->channels, first * stride);
	memcpy(out + first * source->channels, source->ring, (have - first) * stride);
	source->head = (source->head + have) % size;
	source->count -= have;
	pthread_mutex_unlock(&source->lock);
	memset(out + have * source->channels, 0, (frames - have) * stride);
	d->chunk->offset = 0;
	d->chunk->stride = (int32_t)stride;
	d->chunk->size = (uint32_t)(frames * stride);
	pw_stream_queue_buffer(stream, buffer);
}

struct audio_source *audio_source_create(uint32_t rate, uint32_t channels) {
	struct audio_source *source = zalloc(sizeof(*source));
	source->rate = rate;
	source->channels = channels;
	pthread_mutex_init(&source->lock, NULL);
	source->ring_frames = rate * MAX_WAIT_MS / 1000;
	source->ring = calloc(source->ring_frames, frame_bytes(source));
	if (!source->ring) {
		audio_source_destroy(source);
		return NULL;
	}
	const struct audio_node_desc desc = {
		.description = "Remote microphone (oriel)",
		.name = "oriel.remote-microphone",
		.media_class = "Audio/Source",
		.default_key = "default.configured.audio.source",
		.direction = SPA_DIRECTION_OUTPUT,
		.rate = rate,
		.channels = channels,
		.process = process,
		.data = source,
	};
	source->node = audio_node_create(&desc);
	if (!source->node) {
		audio_source_destroy(source);
		return NULL;
	}
	return source;
}

void audio_source_destroy(struct audio_source *source) {
	if (!source) {
		return;
	}
	audio_node_destroy(source->node); /* no process call after */
	if (source->dropped > 0) {
		wlr_log(WLR_DEBUG, "Sound: the remote microphone lost %.2f s that came too fast",
			(double)source->dropped / source->rate);
	}
	free(source->ring);
	pthread_mutex_destroy(&source->lock);
	free(source);
}
