/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pipewire/pipewire.h>
#include <pipewire/extensions/metadata.h>
#include <spa/param/audio/format-utils.h>
#include <spa/utils/result.h>
#include <wlr/util/log.h>
#include "capture/pipewire/audio_node.h"
#include "common/util.h"

/* 10 ms quanta: the graph wakes the node 100 times a second while sound flows. */
#define LATENCY_FRAMES 480
/* The thread waits this long for PipeWire to take the default back. */
#define GOODBYE_MS 1000

struct audio_node {
	struct audio_node_desc desc;
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
};

int64_t audio_thread_cpu_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- the default (PipeWire's thread) ---- */

static void set_default(struct audio_node *node) {
	if (node->default_set || !node->metadata ||
			pw_stream_get_node_id(node->stream) == SPA_ID_INVALID) {
		return;
	}
	node->default_set = true;
	pw_metadata_set_property(node->metadata, PW_ID_CORE, node->desc.default_key,
		"Spa:String:JSON", node->default_value);
	wlr_log(WLR_INFO, "Sound: \"%s\" is the session's default (%s)", node->desc.description,
		node->desc.media_class);
}

static int handle_metadata_property(void *data, uint32_t subject, const char *key,
		const char *type, const char *value) {
	struct audio_node *node = data;
	if (subject != PW_ID_CORE || !key || strcmp(key, node->desc.default_key) != 0 ||
			node->default_set) {
		return 0;
	}
	free(node->previous);
	node->previous = value ? strdup(value) : NULL;
	return 0;
}

static const struct pw_metadata_events metadata_events = {
	PW_VERSION_METADATA_EVENTS,
	.property = handle_metadata_property,
};

static void handle_global(void *data, uint32_t id, uint32_t permissions, const char *type,
		uint32_t version, const struct spa_dict *props) {
	struct audio_node *node = data;
	if (node->metadata || strcmp(type, PW_TYPE_INTERFACE_Metadata) != 0) {
		return;
	}
	const char *name = spa_dict_lookup(props, PW_KEY_METADATA_NAME);
	if (!name || strcmp(name, "default") != 0) {
		return;
	}
	node->metadata = pw_registry_bind(node->registry, id, type, PW_VERSION_METADATA, 0);
	if (node->metadata) {
		pw_metadata_add_listener(node->metadata, &node->metadata_listener,
			&metadata_events, node);
		set_default(node);
	}
}

static const struct pw_registry_events registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = handle_global,
};

static void handle_core_done(void *data, uint32_t id, int seq) {
	struct audio_node *node = data;
	if (id == PW_ID_CORE && seq == node->goodbye_seq) {
		node->goodbye_done = true;
		pw_thread_loop_signal(node->thread, false);
	}
}

static void handle_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
	struct audio_node *node = data;
	wlr_log(WLR_ERROR, "Sound: PipeWire: %s (%s)", message, spa_strerror(res));
	if (id == PW_ID_CORE && res == -EPIPE) {
		node->goodbye_done = true; /* the daemon went: nobody to wait for */
		pw_thread_loop_signal(node->thread, false);
	}
}

static const struct pw_core_events core_events = {
	PW_VERSION_CORE_EVENTS,
	.done = handle_core_done,
	.error = handle_core_error,
};

/* ---- the stream (PipeWire's thread) ---- */

static void handle_process(void *data) {
	struct audio_node *node = data;
	node->desc.process(node->desc.data, node->stream);
}

static void handle_state_changed(void *data, enum pw_stream_state old,
		enum pw_stream_state state, const char *error) {
	struct audio_node *node = data;
	if (state == PW_STREAM_STATE_ERROR) {
		wlr_log(WLR_ERROR, "Sound: \"%s\" failed: %s", node->desc.description,
			error ? error : "?");
		return;
	}
	if (state == PW_STREAM_STATE_PAUSED || state == PW_STREAM_STATE_STREAMING) {
		set_default(node);
	}
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = handle_state_changed,
	.process = handle_process,
};

static bool connect_stream(struct audio_node *node) {
	const struct audio_node_desc *desc = &node->desc;
	char latency[32];
	snprintf(latency, sizeof(latency), "%u/%u", LATENCY_FRAMES * desc->rate / 48000,
		desc->rate);
	struct pw_properties *props = pw_properties_new(
		PW_KEY_MEDIA_TYPE, "Audio",
		PW_KEY_MEDIA_CATEGORY, desc->direction == SPA_DIRECTION_INPUT ?
			"Playback" : "Capture",
		PW_KEY_MEDIA_CLASS, desc->media_class,
		PW_KEY_NODE_NAME, node->node_name,
		PW_KEY_NODE_DESCRIPTION, desc->description,
		PW_KEY_NODE_LATENCY, latency,
		PW_KEY_NODE_VIRTUAL, "true",
		SPA_KEY_AUDIO_POSITION, desc->channels == 1 ? "MONO" : "FL,FR",
		NULL);
	node->stream = pw_stream_new(node->core, desc->description, props);
	if (!node->stream) {
		return false;
	}
	pw_stream_add_listener(node->stream, &node->stream_listener, &stream_events, node);
	uint8_t buffer[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
	struct spa_audio_info_raw info = {
		.format = SPA_AUDIO_FORMAT_S16_LE,
		.rate = desc->rate,
		.channels = desc->channels,
	};
	if (desc->channels == 1) {
		info.position[0] = SPA_AUDIO_CHANNEL_MONO;
	} else {
		info.position[0] = SPA_AUDIO_CHANNEL_FL;
		info.position[1] = SPA_AUDIO_CHANNEL_FR;
	}
	const struct spa_pod *params[1] = {
		spa_format_audio_raw_build(&b, SPA_PARAM_EnumFormat, &info),
	};
	return pw_stream_connect(node->stream, (enum pw_direction)desc->direction, PW_ID_ANY,
		PW_STREAM_FLAG_MAP_BUFFERS, params, 1) == 0;
}

struct audio_node *audio_node_create(const struct audio_node_desc *desc) {
	pw_init(NULL, NULL);
	struct audio_node *node = zalloc(sizeof(*node));
	node->desc = *desc;
	/* Unique among the user's sessions, which may share her PipeWire. */
	snprintf(node->node_name, sizeof(node->node_name), "%s.%d", desc->name, (int)getpid());
	snprintf(node->default_value, sizeof(node->default_value), "{ \"name\": \"%s\" }",
		node->node_name);
	node->thread = pw_thread_loop_new("oriel-sound", NULL);
	if (!node->thread) {
		goto error;
	}
	node->context = pw_context_new(pw_thread_loop_get_loop(node->thread), NULL, 0);
	if (!node->context || pw_thread_loop_start(node->thread) < 0) {
		goto error;
	}
	pw_thread_loop_lock(node->thread);
	node->core = pw_context_connect(node->context, NULL, 0);
	bool ok = node->core != NULL;
	if (ok) {
		pw_core_add_listener(node->core, &node->core_listener, &core_events, node);
		node->registry = pw_core_get_registry(node->core, PW_VERSION_REGISTRY, 0);
		ok = node->registry && connect_stream(node);
		if (node->registry) {
			pw_registry_add_listener(node->registry, &node->registry_listener,
				&registry_events, node);
		}
	} else {
		wlr_log(WLR_ERROR, "Sound: no PipeWire answers in this session (%s): no \"%s\"",
			strerror(errno), desc->description);
	}
	pw_thread_loop_unlock(node->thread);
	if (!ok) {
		goto error;
	}
	wlr_log(WLR_INFO, "Sound: \"%s\" (%s, %u Hz, %u channels) is up", desc->description,
		node->node_name, desc->rate, desc->channels);
	return node;

error:
	audio_node_destroy(node);
	return NULL;
}

/* Puts the default back, and waits (a while) until PipeWire has it. */
static void say_goodbye(struct audio_node *node) {
	if (node->default_set && node->metadata) {
		pw_metadata_set_property(node->metadata, PW_ID_CORE, node->desc.default_key,
			node->previous ? "Spa:String:JSON" : NULL, node->previous);
	}
	if (node->stream) {
		pw_stream_disconnect(node->stream);
	}
	if (!node->core) {
		return;
	}
	node->goodbye_seq = pw_core_sync(node->core, PW_ID_CORE, 0);
	int64_t deadline = monotonic_ms() + GOODBYE_MS;
	while (!node->goodbye_done) {
		int64_t left = deadline - monotonic_ms();
		if (left <= 0) {
			break;
		}
		struct timespec abstime;
		pw_thread_loop_get_time(node->thread, &abstime, left * SPA_NSEC_PER_MSEC);
		pw_thread_loop_timed_wait_full(node->thread, &abstime);
	}
}

void audio_node_destroy(struct audio_node *node) {
	if (!node) {
		return;
	}
	if (node->thread) {
		pw_thread_loop_lock(node->thread);
		say_goodbye(node);
		if (node->stream) {
			pw_stream_destroy(node->stream);
		}
		if (node->metadata) {
			spa_hook_remove(&node->metadata_listener);
			pw_proxy_destroy((struct pw_proxy *)node->metadata);
		}
		if (node->registry) {
			spa_hook_remove(&node->registry_listener);
			pw_proxy_destroy((struct pw_proxy *)node->registry);
		}
		if (node->core) {
			spa_hook_remove(&node->core_listener);
			pw_core_disconnect(node->core);
		}
		pw_thread_loop_unlock(node->thread);
		pw_thread_loop_stop(node->thread);
	}
	if (node->context) {
		pw_context_destroy(node->context);
	}
	if (node->thread) {
		pw_thread_loop_destroy(node->thread);
	}
	if (node->default_set) {
		wlr_log(WLR_INFO, "Sound: \"%s\" is gone; the default is %s again",
			node->desc.description, node->previous ? node->previous :
			"WirePlumber's choice");
	}
	free(node->previous);
	free(node);
}
