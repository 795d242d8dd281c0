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
#include <pipewire/extensions/metadata.h>
#include <spa/param/audio/format-utils.h>
#include <spa/utils/result.h>
#include <wlr/util/log.h>
#include "capture/pipewire/audio_sink.h"
#include "common/util.h"

/*
 * The sink is a pw_stream of class Audio/Sink on a pw_thread_loop. Its
 * process callback copies what is not silence into a ring and wakes
 * oriel's loop through an eventfd; the loop hands the ring's PCM on. A
 * ring that fills (the loop is late) loses its oldest sound: a late
 * listener hears a gap, never a growing delay.
 *
 * The default sink is WirePlumber's "default.configured.audio.sink" in
 * the "default" metadata (what pactl set-default-sink writes); streams
 * that follow the default move with it. The value before ours is put
 * back when the sink goes.
 */

#define DEFAULT_KEY "default.configured.audio.sink"
/* 10 ms quanta: the graph wakes the sink 100 times a second while it plays. */
#define NODE_LATENCY "480/48000"
/* Half a second of sound waits for the loop at most. */
#define RING_FRAMES (AUDIO_SINK_RATE / 2)
#define FRAME_BYTES (AUDIO_SINK_CHANNELS * sizeof(int16_t))
/* The thread waits this long for PipeWire to take the default back. */
#define GOODBYE_MS 1000
/* Statistics in the debug log, this often while sound plays. */
#define STATS_MS 10000

struct audio_sink {
	struct pw_thread_loop *thread;
	struct pw_context *context;
	struct pw_core *core;
	struct spa_hook core_listener;
	struct pw_registry *registry;
	struct spa_hook registry_listener;
	struct pw_metadata *metadata;
	struct spa_hook metadata_listener;
	struct pw_stream *stream;
	struct spa_hook stream_listener;
	char node_name[64];
	char default_value[128]; /* ours, as JSON */
	char *previous;          /* the default before ours; NULL: none */
	bool default_set;
	int goodbye_seq;
	bool goodbye_done;

	/* The ring: written on PipeWire's thread, read in the loop. */
	pthread_mutex_t lock;
	int16_t *ring;
	size_t head, count; /* frames: where the oldest is, how many */
	bool sounding;      /* the last buffer was not silence */
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

static int64_t thread_cpu_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- the default sink (PipeWire's thread) ---- */

static void set_default(struct audio_sink *sink) {
	if (sink->default_set || !sink->metadata ||
			pw_stream_get_node_id(sink->stream) == SPA_ID_INVALID) {
		return;
	}
	sink->default_set = true;
	pw_metadata_set_property(sink->metadata, PW_ID_CORE, DEFAULT_KEY, "Spa:String:JSON",
		sink->default_value);
	wlr_log(WLR_INFO, "Sound: \"Remote audio (oriel)\" is the session's default sink");
}

static int handle_metadata_property(void *data, uint32_t subject, const char *key,
		const char *type, const char *value) {
	struct audio_sink *sink = data;
	if (subject != PW_ID_CORE || !key || strcmp(key, DEFAULT_KEY) != 0 || sink->default_set) {
		return 0;
	}
	free(sink->previous);
	sink->previous = value ? strdup(value) : NULL;
	return 0;
}

static const struct pw_metadata_events metadata_events = {
	PW_VERSION_METADATA_EVENTS,
	.property = handle_metadata_property,
};

static void handle_global(void *data, uint32_t id, uint32_t permissions, const char *type,
		uint32_t version, const struct spa_dict *props) {
	struct audio_sink *sink = data;
	if (sink->metadata || strcmp(type, PW_TYPE_INTERFACE_Metadata) != 0) {
		return;
	}
	const char *name = spa_dict_lookup(props, PW_KEY_METADATA_NAME);
	if (!name || strcmp(name, "default") != 0) {
		return;
	}
	sink->metadata = pw_registry_bind(sink->registry, id, type, PW_VERSION_METADATA, 0);
	if (sink->metadata) {
		pw_metadata_add_listener(sink->metadata, &sink->metadata_listener,
			&metadata_events, sink);
		set_default(sink);
	}
}

static const struct pw_registry_events registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = handle_global,
};

static void handle_core_done(void *data, uint32_t id, int seq) {
	struct audio_sink *sink = data;
	if (id == PW_ID_CORE && seq == sink->goodbye_seq) {
		sink->goodbye_done = true;
		pw_thread_loop_signal(sink->thread, false);
	}
}

static void handle_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
	struct audio_sink *sink = data;
	wlr_log(WLR_ERROR, "Sound: PipeWire: %s (%s)", message, spa_strerror(res));
	if (id == PW_ID_CORE && res == -EPIPE) {
		sink->goodbye_done = true; /* the daemon went: nobody to wait for */
		pw_thread_loop_signal(sink->thread, false);
	}
}

static const struct pw_core_events core_events = {
	PW_VERSION_CORE_EVENTS,
	.done = handle_core_done,
	.error = handle_core_error,
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

static void handle_process(void *data) {
	struct audio_sink *sink = data;
	int64_t cpu = thread_cpu_ns();
	struct pw_buffer *buffer = pw_stream_dequeue_buffer(sink->stream);
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
		bool sounding = frames > 0 && !silent(samples, frames * AUDIO_SINK_CHANNELS);
		if (sounding) {
			ring_push(sink, samples, frames);
		} else if (sink->sounding) {
			ring_end(sink);
		}
		sink->sounding = sounding;
	}
	pw_stream_queue_buffer(sink->stream, buffer);
	__atomic_add_fetch(&sink->stat_cpu_ns, thread_cpu_ns() - cpu, __ATOMIC_RELAXED);
}

static void handle_state_changed(void *data, enum pw_stream_state old,
		enum pw_stream_state state, const char *error) {
	struct audio_sink *sink = data;
	if (state == PW_STREAM_STATE_ERROR) {
		wlr_log(WLR_ERROR, "Sound: the remote audio sink failed: %s", error ? error : "?");
		return;
	}
	if (state == PW_STREAM_STATE_PAUSED || state == PW_STREAM_STATE_STREAMING) {
		set_default(sink);
	}
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = handle_state_changed,
	.process = handle_process,
};

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
	int64_t cpu = thread_cpu_ns();
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
	__atomic_add_fetch(&sink->stat_cpu_ns, thread_cpu_ns() - cpu, __ATOMIC_RELAXED);
	log_stats(sink, monotonic_ms());
	return 0;
}

static bool connect_stream(struct audio_sink *sink) {
	struct pw_properties *props = pw_properties_new(
		PW_KEY_MEDIA_TYPE, "Audio",
		PW_KEY_MEDIA_CATEGORY, "Playback",
		PW_KEY_MEDIA_CLASS, "Audio/Sink",
		PW_KEY_NODE_NAME, sink->node_name,
		PW_KEY_NODE_DESCRIPTION, "Remote audio (oriel)",
		PW_KEY_NODE_LATENCY, NODE_LATENCY,
		PW_KEY_NODE_VIRTUAL, "true",
		SPA_KEY_AUDIO_POSITION, "FL,FR",
		NULL);
	sink->stream = pw_stream_new(sink->core, "Remote audio (oriel)", props);
	if (!sink->stream) {
		return false;
	}
	pw_stream_add_listener(sink->stream, &sink->stream_listener, &stream_events, sink);
	uint8_t buffer[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
	struct spa_audio_info_raw info = {
		.format = SPA_AUDIO_FORMAT_S16_LE,
		.rate = AUDIO_SINK_RATE,
		.channels = AUDIO_SINK_CHANNELS,
		.position = { SPA_AUDIO_CHANNEL_FL, SPA_AUDIO_CHANNEL_FR },
	};
	const struct spa_pod *params[1] = {
		spa_format_audio_raw_build(&b, SPA_PARAM_EnumFormat, &info),
	};
	return pw_stream_connect(sink->stream, PW_DIRECTION_INPUT, PW_ID_ANY,
		PW_STREAM_FLAG_MAP_BUFFERS, params, 1) == 0;
}

struct audio_sink *audio_sink_create(struct wl_event_loop *loop, audio_sink_pcm_fn pcm,
		void *data) {
	pw_init(NULL, NULL);
	struct audio_sink *sink = zalloc(sizeof(*sink));
	sink->pcm = pcm;
	sink->data = data;
	sink->wake_fd = -1;
	pthread_mutex_init(&sink->lock, NULL);
	/* Unique among the user's sessions, which may share her PipeWire. */
	snprintf(sink->node_name, sizeof(sink->node_name), "oriel.remote-audio.%d", (int)getpid());
	snprintf(sink->default_value, sizeof(sink->default_value), "{ \"name\": \"%s\" }",
		sink->node_name);
	sink->ring = calloc(RING_FRAMES, FRAME_BYTES);
	sink->scratch = calloc(RING_FRAMES, FRAME_BYTES);
	sink->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!sink->ring || !sink->scratch || sink->wake_fd < 0) {
		goto error;
	}
	sink->wake_source = wl_event_loop_add_fd(loop, sink->wake_fd, WL_EVENT_READABLE,
		handle_wake, sink);
	sink->thread = pw_thread_loop_new("oriel-sound", NULL);
	if (!sink->wake_source || !sink->thread) {
		goto error;
	}
	sink->context = pw_context_new(pw_thread_loop_get_loop(sink->thread), NULL, 0);
	if (!sink->context || pw_thread_loop_start(sink->thread) < 0) {
		goto error;
	}
	pw_thread_loop_lock(sink->thread);
	sink->core = pw_context_connect(sink->context, NULL, 0);
	bool ok = sink->core != NULL;
	if (ok) {
		pw_core_add_listener(sink->core, &sink->core_listener, &core_events, sink);
		sink->registry = pw_core_get_registry(sink->core, PW_VERSION_REGISTRY, 0);
		ok = sink->registry && connect_stream(sink);
		if (sink->registry) {
			pw_registry_add_listener(sink->registry, &sink->registry_listener,
				&registry_events, sink);
		}
	} else {
		wlr_log(WLR_ERROR, "Sound: no PipeWire answers in this session (%s): clients "
			"get no sound", strerror(errno));
	}
	pw_thread_loop_unlock(sink->thread);
	if (!ok) {
		goto error;
	}
	wlr_log(WLR_INFO, "Sound: \"Remote audio (oriel)\" (%s) takes the session's sound",
		sink->node_name);
	return sink;

error:
	audio_sink_destroy(sink);
	return NULL;
}

/* Puts the default back, and waits (a while) until PipeWire has it. */
static void say_goodbye(struct audio_sink *sink) {
	if (sink->default_set && sink->metadata) {
		pw_metadata_set_property(sink->metadata, PW_ID_CORE, DEFAULT_KEY,
			sink->previous ? "Spa:String:JSON" : NULL, sink->previous);
	}
	if (sink->stream) {
		pw_stream_disconnect(sink->stream);
	}
	if (!sink->core) {
		return;
	}
	sink->goodbye_seq = pw_core_sync(sink->core, PW_ID_CORE, 0);
	int64_t deadline = monotonic_ms() + GOODBYE_MS;
	while (!sink->goodbye_done) {
		int64_t left = deadline - monotonic_ms();
		if (left <= 0) {
			break;
		}
		struct timespec abstime;
		pw_thread_loop_get_time(sink->thread, &abstime, left * SPA_NSEC_PER_MSEC);
		pw_thread_loop_timed_wait_full(sink->thread, &abstime);
	}
}

void audio_sink_destroy(struct audio_sink *sink) {
	if (!sink) {
		return;
	}
	if (sink->thread) {
		pw_thread_loop_lock(sink->thread);
		say_goodbye(sink);
		if (sink->stream) {
			pw_stream_destroy(sink->stream);
		}
		if (sink->metadata) {
			spa_hook_remove(&sink->metadata_listener);
			pw_proxy_destroy((struct pw_proxy *)sink->metadata);
		}
		if (sink->registry) {
			spa_hook_remove(&sink->registry_listener);
			pw_proxy_destroy((struct pw_proxy *)sink->registry);
		}
		if (sink->core) {
			spa_hook_remove(&sink->core_listener);
			pw_core_disconnect(sink->core);
		}
		pw_thread_loop_unlock(sink->thread);
		pw_thread_loop_stop(sink->thread);
	}
	if (sink->context) {
		pw_context_destroy(sink->context);
	}
	if (sink->thread) {
		pw_thread_loop_destroy(sink->thread);
	}
	if (sink->wake_source) {
		wl_event_source_remove(sink->wake_source);
	}
	if (sink->wake_fd >= 0) {
		close(sink->wake_fd);
	}
	if (sink->default_set) {
		wlr_log(WLR_INFO, "Sound: \"Remote audio (oriel)\" is gone; the default sink is "
			"%s again", sink->previous ? sink->previous : "WirePlumber's choice");
	}
	free(sink->previous);
	free(sink->ring);
	free(sink->scratch);
	pthread_mutex_destroy(&sink->lock);
	free(sink);
}
