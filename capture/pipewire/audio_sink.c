/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
#include <pipewire/pipewire.h>
#include <wlr/util/log.h>
#include "capture/pipewire/audio_node.h"
#include "capture/pipewire/audio_sink.h"
#include "common/util.h"

/*
 * The sink is an audio_node (audio_node.h: a pw_stream of class
 * Audio/Sink on a thread of its own, the default sink while it exists;
 * streams that follow the default move to it). Its process callback
 * copies what is not lasting silence into a ring and wakes oriel's loop through
 * an eventfd; the loop hands the ring's PCM on. A ring that fills (the
 * loop is late) loses its oldest sound: a late listener hears a gap,
 * never a growing delay.
 */

/*
 * Silence this long after sound still goes (a pause between notes, a
 * player that was late): what goes keeps the time it was played in.
 * Longer silence sends nothing more.
 */
#define HANGOVER_FRAMES (AUDIO_SINK_RATE / 5)
/* Half a second of sound waits for the loop at most. */
#define RING_FRAMES (AUDIO_SINK_RATE / 2)
#define FRAME_BYTES (AUDIO_SINK_CHANNELS * sizeof(int16_t))
/* Statistics in the debug log, this often while sound plays. */
#define STATS_MS 10000

struct audio_sink {
	struct audio_node *node;

	/* The ring: written on PipeWire's thread, read in the loop. */
	pthread_mutex_t lock;
	int16_t *ring;
	size_t head, count; /* frames: where the oldest is, how many */
	size_t silent_frames; /* of silence since the last sound (capped) */
	bool ended;         /* silence followed sound: the loop is told */
	uint64_t dropped;   /* frames lost to a full ring */
	int wake_fd;
	struct wl_event_source *wake_source;
	int16_t *scratch; /* the loop's copy of the ring */

	audio_sink_pcm_fn pcm;
	void *data;

	/* Statistics: sound taken, and the CPU both sides spent on it. */
	uint64_t stat_frames;
	int64_t stat_cpu_ns, stat_since_ms;
};

/* ---- the stream (PipeWire's thread) ---- */

static bool silent(const int16_t *samples, size_t n) {
	for (size_t i = 0; i < n; i++) {
		if (samples[i] != 0) {
			return false;
		}
	}
	return true;
}

static void wake(struct audio_sink *sink) {
	uint64_t one = 1;
	if (write(sink->wake_fd, &one, sizeof(one)) < 0 && errno != EAGAIN) {
		wlr_log_errno(WLR_ERROR, "Sound: cannot wake the loop");
	}
}

static void ring_push(struct audio_sink *sink, const int16_t *samples, size_t frames) {
	if (frames > RING_FRAMES) {
		samples += (frames - RING_FRAMES) * AUDIO_SINK_CHANNELS;
		sink->dropped += frames - RING_FRAMES;
		frames = RING_FRAMES;
	}
	pthread_mutex_lock(&sink->lock);
	if (sink->count + frames > RING_FRAMES) {
		size_t lose = sink->count + frames - RING_FRAMES;
		sink->head = (sink->head + lose) % RING_FRAMES;
		sink->count -= lose;
		sink->dropped += lose;
	}
	size_t tail = (sink->head + sink->count) % RING_FRAMES;
	size_t first = frames < RING_FRAMES - tail ? frames : RING_FRAMES - tail;
	memcpy(sink->ring + tail * AUDIO_SINK_CHANNELS, samples, first * FRAME_BYTES);
	memcpy(sink->ring, samples + first * AUDIO_SINK_CHANNELS, (frames - first) * FRAME_BYTES);
	bool was_empty = sink->count == 0;
	sink->count += frames;
	pthread_mutex_unlock(&sink->lock);
	if (was_empty) {
		wake(sink);
	}
}

static void ring_end(struct audio_sink *sink) {
	pthread_mutex_lock(&sink->lock);
	sink->ended = true;
	pthread_mutex_unlock(&sink->lock);
	wake(sink);
}

static void process(void *data, struct pw_stream *stream) {
	struct audio_sink *sink = data;
	int64_t cpu = audio_thread_cpu_ns();
	struct pw_buffer *buffer = pw_stream_dequeue_buffer(stream);
	if (!buffer) {
		return;
	}
	struct spa_data *d = &buffer->buffer->datas[0];
	if (d->data && d->chunk) {
		uint32_t offset = d->chunk->offset < d->maxsize ? d->chunk->offset : d->maxsize;
		uint32_t size = d->chunk->size < d->maxsize - offset ? d->chunk->size :
			d->maxsize - offset;
		const int16_t *samples = SPA_PTROFF(d->data, offset, const int16_t);
		size_t frames = size / FRAME_BYTES;
		if (frames > 0 && !silent(samples, frames * AUDIO_SINK_CHANNELS)) {
			sink->silent_frames = 0;
			ring_push(sink, samples, frames);
		} else if (sink->silent_frames < HANGOVER_FRAMES) {
			sink->silent_frames += frames;
			if (sink->silent_frames < HANGOVER_FRAMES) {
				ring_push(sink, samples, frames);
			} else {
				ring_end(sink);
			}
		}
	}
	pw_stream_queue_buffer(stream, buffer);
	__atomic_add_fetch(&sink->stat_cpu_ns, audio_thread_cpu_ns() - cpu, __ATOMIC_RELAXED);
}

/* ---- the loop ---- */

static void log_stats(struct audio_sink *sink, int64_t now) {
	if (sink->stat_since_ms == 0) {
		sink->stat_since_ms = now;
		return;
	}
	if (now - sink->stat_since_ms < STATS_MS) {
		return;
	}
	int64_t cpu = __atomic_exchange_n(&sink->stat_cpu_ns, 0, __ATOMIC_RELAXED);
	double seconds = (double)sink->stat_frames / AUDIO_SINK_RATE;
	wlr_log(WLR_DEBUG, "Sound: %.1f s of sound in %.1f s, %.2f ms CPU per second of sound "
		"(capture), %" PRIu64 " frames lost to a late loop", seconds,
		(now - sink->stat_since_ms) / 1000.0, seconds > 0 ? cpu / 1e6 / seconds : 0.0,
		sink->dropped);
	sink->stat_frames = 0;
	sink->stat_since_ms = now;
}

static int handle_wake(int fd, uint32_t mask, void *data) {
	struct audio_sink *sink = data;
	uint64_t n;
	if (read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN) {
		return 0;
	}
	int64_t cpu = audio_thread_cpu_ns();
	pthread_mutex_lock(&sink->lock);
	size_t frames = sink->count;
	size_t first = frames < RING_FRAMES - sink->head ? frames : RING_FRAMES - sink->head;
	memcpy(sink->scratch, sink->ring + sink->head * AUDIO_SINK_CHANNELS, first * FRAME_BYTES);
	memcpy(sink->scratch + first * AUDIO_SINK_CHANNELS, sink->ring,
		(frames - first) * FRAME_BYTES);
	sink->head = 0;
	sink->count = 0;
	bool ended = sink->ended;
	sink->ended = false;
	pthread_mutex_unlock(&sink->lock);
	if (frames > 0) {
		sink->stat_frames += frames;
		sink->pcm(sink->data, sink->scratch, frames);
	}
	if (ended) {
		sink->pcm(sink->data, NULL, 0);
	}
	__atomic_add_fetch(&sink->stat_cpu_ns, audio_thread_cpu_ns() - cpu, __ATOMIC_RELAXED);
	log_stats(sink, monotonic_ms());
	return 0;
}

struct audio_sink *audio_sink_create(struct wl_event_loop *loop, audio_sink_pcm_fn pcm,
		void *data) {
	struct audio_sink *sink = zalloc(sizeof(*sink));
	sink->pcm = pcm;
	sink->data = data;
	sink->wake_fd = -1;
	sink->silent_frames = HANGOVER_FRAMES; /* silence before any sound sends nothing */
	pthread_mutex_init(&sink->lock, NULL);
	sink->ring = calloc(RING_FRAMES, FRAME_BYTES);
	sink->scratch = calloc(RING_FRAMES, FRAME_BYTES);
	sink->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!sink->ring || !sink->scratch || sink->wake_fd < 0) {
		goto error;
	}
	sink->wake_source = wl_event_loop_add_fd(loop, sink->wake_fd, WL_EVENT_READABLE,
		handle_wake, sink);
	if (!sink->wake_source) {
		goto error;
	}
	const struct audio_node_desc desc = {
		.description = "Remote audio (oriel)",
		.name = "oriel.remote-audio",
		.media_class = "Audio/Sink",
		.default_key = "default.configured.audio.sink",
		.direction = SPA_DIRECTION_INPUT,
		.rate = AUDIO_SINK_RATE,
		.channels = AUDIO_SINK_CHANNELS,
		.process = process,
		.data = sink,
	};
	sink->node = audio_node_create(&desc);
	if (!sink->node) {
		goto error;
	}
	return sink;

error:
	audio_sink_destroy(sink);
	return NULL;
}

void audio_sink_destroy(struct audio_sink *sink) {
	if (!sink) {
		return;
	}
	audio_node_destroy(sink->node); /* no process call after */
	if (sink->wake_source) {
		wl_event_source_remove(sink->wake_source);
	}
	if (sink->wake_fd >= 0) {
		close(sink->wake_fd);
	}
	free(sink->ring);
	free(sink->scratch);
	pthread_mutex_destroy(&sink->lock);
	free(sink);
}
