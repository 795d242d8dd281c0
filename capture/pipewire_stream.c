/*
 * PipeWire output casts with memfd buffers: see pipewire_stream.h.
 *
 * The pw_loop runs inside oriel's wl_event_loop: its fd (an epoll fd that
 * becomes readable when PipeWire has work: socket data, its own timers and
 * events) is watched, and pw_loop_iterate(loop, 0) runs what is ready.
 * The stream drives its graph (PW_STREAM_FLAG_DRIVER): nothing runs until
 * we queue a frame and call pw_stream_trigger_process, so an idle output
 * costs no wakeups at all.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/param/props.h>
#include <spa/buffer/meta.h>
#include <spa/utils/result.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "capture/format_negotiation.h"
#include "capture/output_capture.h"
#include "capture/pipewire_stream.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "compositor/util.h"

#define CAST_BUFFERS_DEFAULT 4
#define CAST_BUFFERS_MIN 2
#define CAST_BUFFERS_MAX 8
#define CAST_DAMAGE_REGIONS 16
#define CAST_PAUSE_GRACE_MS 1000

struct pipewire_core {
	struct pw_loop *loop;
	struct pw_context *context;
	struct pw_core *core;
	struct spa_hook core_listener;
	struct wl_event_source *source;
	struct wl_list casts; /* pipewire_cast.link */
	bool connected;
};

struct cast_buffer {
	struct pw_buffer *pw_buffer;
	void *data;
	size_t size;
	int fd;
	pixman_region32_t damage; /* missed since it was last filled */
	struct wl_list link; /* pipewire_cast.buffers */
};

struct pipewire_cast {
	struct pipewire_core *core;
	struct output *output;
	struct output_capture *capture;
	const struct pipewire_cast_callbacks *callbacks;
	void *data;
	struct wl_list link;

	struct pw_stream *stream;
	struct spa_hook stream_listener;
	enum pw_stream_state state;
	bool streamed;
	uint32_t node_id;
	bool ready_sent;

	/* The negotiated format. */
	int width, height, stride;
	enum cast_format format;
	uint64_t interval_ns;

	struct wl_list buffers; /* cast_buffer.link */
	/* Damage since the last queued frame (the VideoDamage meta). */
	pixman_region32_t pending;
	/* The output's newest frame while pending damage waits for a buffer. */
	struct wlr_buffer *latest;
	int latest_width, latest_height;
	uint64_t last_frame_ns;
	uint64_t seq;

	struct wl_event_source *retry_timer;
	/* Paused after streaming: the consumer left unless it comes back soon. */
	struct wl_event_source *pause_timer;
	struct wl_event_source *close_idle;
	char close_why[128];
	bool closing;

	struct wl_listener frame;
	struct wl_listener capture_destroy;
};

static uint64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint32_t spa_from_cast_format(enum cast_format format) {
	switch (format) {
	case CAST_FORMAT_BGRX: return SPA_VIDEO_FORMAT_BGRx;
	case CAST_FORMAT_BGRA: return SPA_VIDEO_FORMAT_BGRA;
	case CAST_FORMAT_RGBX: return SPA_VIDEO_FORMAT_RGBx;
	case CAST_FORMAT_RGBA: return SPA_VIDEO_FORMAT_RGBA;
	case CAST_FORMAT_NONE: break;
	}
	return SPA_VIDEO_FORMAT_UNKNOWN;
}

static enum cast_format cast_format_from_spa(uint32_t format) {
	switch (format) {
	case SPA_VIDEO_FORMAT_BGRx: return CAST_FORMAT_BGRX;
	case SPA_VIDEO_FORMAT_BGRA: return CAST_FORMAT_BGRA;
	case SPA_VIDEO_FORMAT_RGBx: return CAST_FORMAT_RGBX;
	case SPA_VIDEO_FORMAT_RGBA: return CAST_FORMAT_RGBA;
	}
	return CAST_FORMAT_NONE;
}

/* ---- closing ---- */

static void handle_close_idle(void *data) {
	struct pipewire_cast *cast = data;
	cast->close_idle = NULL;
	/* The owner destroys the cast from here. */
	cast->callbacks->closed(cast, cast->close_why, cast->data);
}

static void cast_schedule_close(struct pipewire_cast *cast, const char *why) {
	if (cast->closing) {
		return;
	}
	cast->closing = true;
	snprintf(cast->close_why, sizeof(cast->close_why), "%s", why);
	wlr_log(WLR_INFO, "pipewire: cast node %u ends: %s", cast->node_id, why);
	struct wl_event_loop *loop = cast->output->server->loop;
	cast->close_idle = wl_event_loop_add_idle(loop, handle_close_idle, cast);
}

/* ---- the core: pw_loop inside the wl_event_loop ---- */

static int handle_loop_fd(int fd, uint32_t mask, void *data) {
	struct pipewire_core *core = data;
	int r = pw_loop_iterate(core->loop, 0);
	if (r < 0 && r != -EINTR && r != -EAGAIN) {
		wlr_log(WLR_ERROR, "pipewire: pw_loop_iterate: %s", spa_strerror(r));
	}
	return 0;
}

static void handle_core_error(void *data, uint32_t id, int seq, int res,
		const char *message) {
	struct pipewire_core *core = data;
	wlr_log(WLR_ERROR, "pipewire: error on object %u: %s (%s)", id,
		message ? message : "", spa_strerror(res));
	if (id == PW_ID_CORE && res == -EPIPE) {
		core->connected = false;
		struct pipewire_cast *cast;
		wl_list_for_each(cast, &core->casts, link) {
			cast_schedule_close(cast, "PipeWire disconnected");
		}
	}
}

static const struct pw_core_events core_events = {
	PW_VERSION_CORE_EVENTS,
	.error = handle_core_error,
};

struct pipewire_core *pipewire_core_create(struct wl_event_loop *wl_loop) {
	pw_init(NULL, NULL);
	struct pipewire_core *core = zalloc(sizeof(*core));
	wl_list_init(&core->casts);
	core->loop = pw_loop_new(NULL);
	if (!core->loop) {
		wlr_log(WLR_ERROR, "pipewire: cannot create a loop");
		goto error;
	}
	pw_loop_enter(core->loop);
	core->source = wl_event_loop_add_fd(wl_loop, pw_loop_get_fd(core->loop),
		WL_EVENT_READABLE, handle_loop_fd, core);
	core->context = pw_context_new(core->loop, NULL, 0);
	if (!core->context) {
		wlr_log(WLR_ERROR, "pipewire: cannot create a context: %s", strerror(errno));
		goto error;
	}
	core->core = pw_context_connect(core->context, NULL, 0);
	if (!core->core) {
		wlr_log(WLR_ERROR, "pipewire: cannot connect to the daemon: %s",
			strerror(errno));
		goto error;
	}
	pw_core_add_listener(core->core, &core->core_listener, &core_events, core);
	core->connected = true;
	wlr_log(WLR_INFO, "pipewire: connected (library %s)", pw_get_library_version());
	return core;

error:
	pipewire_core_destroy(core);
	return NULL;
}

void pipewire_core_destroy(struct pipewire_core *core) {
	if (!core) {
		return;
	}
	if (core->core) {
		spa_hook_remove(&core->core_listener);
		pw_core_disconnect(core->core);
	}
	if (core->context) {
		pw_context_destroy(core->context);
	}
	if (core->source) {
		wl_event_source_remove(core->source);
	}
	if (core->loop) {
		pw_loop_leave(core->loop);
		pw_loop_destroy(core->loop);
	}
	free(core);
	pw_deinit();
}

bool pipewire_core_connected(const struct pipewire_core *core) {
	return core && core->connected;
}

/* ---- producing frames ---- */

static void cast_release_latest(struct pipewire_cast *cast) {
	if (cast->latest) {
		wlr_buffer_unlock(cast->latest);
		cast->latest = NULL;
	}
}

static void arm_retry(struct pipewire_cast *cast, uint64_t delay_ns) {
	int ms = (int)((delay_ns + 999999) / 1000000);
	wl_event_source_timer_update(cast->retry_timer, ms > 0 ? ms : 1);
}

/* Converts the BGRx bytes of region in place to the negotiated format. */
static void fix_format(struct pipewire_cast *cast, uint8_t *dst,
		const pixman_region32_t *region) {
	bool swap = cast_format_swaps_rb(cast->format);
	bool alpha = cast_format_has_alpha(cast->format);
	if (!swap && !alpha) {
		return;
	}
	int n;
	const pixman_box32_t *b = pixman_region32_rectangles(
		(pixman_region32_t *)region, &n);
	for (int i = 0; i < n; i++) {
		for (int y = b[i].y1; y < b[i].y2; y++) {
			uint8_t *p = dst + (size_t)y * cast->stride + (size_t)b[i].x1 * 4;
			for (int x = b[i].x1; x < b[i].x2; x++, p += 4) {
				if (swap) {
					uint8_t t = p[0];
					p[0] = p[2];
					p[2] = t;
				}
				if (alpha) {
					p[3] = 0xff;
				}
			}
		}
	}
}

static void write_damage_meta(struct pipewire_cast *cast, struct spa_buffer *sb) {
	struct spa_meta *meta = spa_buffer_find_meta(sb, SPA_META_VideoDamage);
	if (!meta) {
		return;
	}
	struct spa_meta_region *regions = meta->data;
	size_t max = meta->size / sizeof(*regions);
	if (max == 0) {
		return;
	}
	int n;
	const pixman_box32_t *b = pixman_region32_rectangles(&cast->pending, &n);
	size_t used = 0;
	if ((size_t)n > max) {
		/* Too many: their bounding box, which covers them all. */
		const pixman_box32_t *e = pixman_region32_extents(&cast->pending);
		regions[0].region = SPA_REGION(e->x1, e->y1, (uint32_t)(e->x2 - e->x1),
			(uint32_t)(e->y2 - e->y1));
		used = 1;
	} else {
		for (int i = 0; i < n; i++) {
			regions[used++].region = SPA_REGION(b[i].x1, b[i].y1,
				(uint32_t)(b[i].x2 - b[i].x1), (uint32_t)(b[i].y2 - b[i].y1));
		}
	}
	if (used < max) {
		/* An empty region ends the list. */
		regions[used].region = SPA_REGION(0, 0, 0, 0);
	}
}

static void cast_produce(struct pipewire_cast *cast) {
	if (cast->closing || cast->state != PW_STREAM_STATE_STREAMING || !cast->latest ||
			!pixman_region32_not_empty(&cast->pending)) {
		return;
	}
	uint64_t now = now_ns();
	if (cast->last_frame_ns && now < cast->last_frame_ns + cast->interval_ns) {
		arm_retry(cast, cast->last_frame_ns + cast->interval_ns - now);
		return;
	}
	struct pw_buffer *pwb = pw_stream_dequeue_buffer(cast->stream);
	if (!pwb) {
		/* The consumer holds every buffer: try again a frame later. */
		arm_retry(cast, cast->interval_ns);
		return;
	}
	struct cast_buffer *buffer = pwb->user_data;
	struct spa_buffer *sb = pwb->buffer;
	struct spa_data *d = &sb->datas[0];

	pixman_region32_intersect_rect(&buffer->damage, &buffer->damage, 0, 0,
		cast->width, cast->height);
	struct output_capture_frame frame = {
		.buffer = cast->latest,
		.damage = &buffer->damage,
		.width = cast->latest_width,
		.height = cast->latest_height,
	};
	bool ok = output_capture_frame_copy(cast->capture, &frame, &buffer->damage,
		buffer->data, cast->stride, cast->width, cast->height, 0, 0);
	if (ok) {
		fix_format(cast, buffer->data, &buffer->damage);
		pixman_region32_clear(&buffer->damage);
	}
	d->chunk->offset = 0;
	d->chunk->size = (uint32_t)(cast->stride * cast->height);
	d->chunk->stride = cast->stride;
	d->chunk->flags = ok ? SPA_CHUNK_FLAG_NONE : SPA_CHUNK_FLAG_CORRUPTED;

	struct spa_meta_header *header = spa_buffer_find_meta_data(sb, SPA_META_Header,
		sizeof(*header));
	if (header) {
		header->flags = ok ? 0 : SPA_META_HEADER_FLAG_CORRUPTED;
		header->offset = 0;
		header->pts = (int64_t)now;
		header->dts_offset = 0;
		header->seq = cast->seq;
	}
	write_damage_meta(cast, sb);
	cast->seq++;
	pw_stream_queue_buffer(cast->stream, pwb);
	pw_stream_trigger_process(cast->stream);

	pixman_region32_clear(&cast->pending);
	cast_release_latest(cast);
	cast->last_frame_ns = now;
}

static int handle_pause_timer(void *data) {
	struct pipewire_cast *cast = data;
	if (cast->state != PW_STREAM_STATE_STREAMING) {
		cast_schedule_close(cast, "the consumer went away");
	}
	return 0;
}

static int handle_retry_timer(void *data) {
	struct pipewire_cast *cast = data;
	cast_produce(cast);
	return 0;
}

static void handle_frame(struct wl_listener *listener, void *data) {
	struct pipewire_cast *cast = wl_container_of(listener, cast, frame);
	struct output_capture_frame *frame = data;
	pixman_region32_union(&cast->pending, &cast->pending, frame->damage);
	struct cast_buffer *buffer;
	wl_list_for_each(buffer, &cast->buffers, link) {
		pixman_region32_union(&buffer->damage, &buffer->damage, frame->damage);
	}
	if (cast->state != PW_STREAM_STATE_STREAMING || cast->closing) {
		return;
	}
	cast_release_latest(cast);
	cast->latest = wlr_buffer_lock(frame->buffer);
	cast->latest_width = frame->width;
	cast->latest_height = frame->height;
	cast_produce(cast);
}

static void handle_capture_destroy(struct wl_listener *listener, void *data) {
	struct pipewire_cast *cast = wl_container_of(listener, cast, capture_destroy);
	wl_list_remove(&cast->frame.link);
	wl_list_remove(&cast->capture_destroy.link);
	wl_list_init(&cast->frame.link);
	wl_list_init(&cast->capture_destroy.link);
	cast->capture = NULL;
	cast_release_latest(cast);
	cast_schedule_close(cast, "the output went away");
}

/* ---- the stream ---- */

static void damage_everything(struct pipewire_cast *cast) {
	pixman_region32_union_rect(&cast->pending, &cast->pending, 0, 0,
		cast->width, cast->height);
	struct cast_buffer *buffer;
	wl_list_for_each(buffer, &cast->buffers, link) {
		pixman_region32_union_rect(&buffer->damage, &buffer->damage, 0, 0,
			cast->width, cast->height);
	}
}

static void handle_state_changed(void *data, enum pw_stream_state old,
		enum pw_stream_state state, const char *error) {
	struct pipewire_cast *cast = data;
	cast->state = state;
	wlr_log(WLR_DEBUG, "pipewire: cast stream %s -> %s%s%s",
		pw_stream_state_as_string(old), pw_stream_state_as_string(state),
		error ? ": " : "", error ? error : "");
	uint32_t node_id = pw_stream_get_node_id(cast->stream);
	if (node_id != SPA_ID_INVALID) {
		cast->node_id = node_id;
		if (!cast->ready_sent && !cast->closing &&
				(state == PW_STREAM_STATE_PAUSED || state == PW_STREAM_STATE_STREAMING)) {
			cast->ready_sent = true;
			cast->callbacks->ready(cast, node_id, cast->data);
		}
	}
	switch (state) {
	case PW_STREAM_STATE_STREAMING:
		wl_event_source_timer_update(cast->pause_timer, 0);
		cast->streamed = true;
		cast->last_frame_ns = 0;
		damage_everything(cast);
		if (cast->capture) {
			output_capture_request_full(cast->capture);
		}
		break;
	case PW_STREAM_STATE_PAUSED:
		cast_release_latest(cast);
		wl_event_source_timer_update(cast->retry_timer, 0);
		if (cast->streamed) {
			/* The graph may pause us while it is rearranged: give it a moment. */
			wl_event_source_timer_update(cast->pause_timer, CAST_PAUSE_GRACE_MS);
		}
		break;
	case PW_STREAM_STATE_ERROR:
		cast_schedule_close(cast, error ? error : "stream error");
		break;
	case PW_STREAM_STATE_UNCONNECTED:
		cast_schedule_close(cast, "stream disconnected");
		break;
	case PW_STREAM_STATE_CONNECTING:
		break;
	}
}

static void handle_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
	struct pipewire_cast *cast = data;
	if (id != SPA_PARAM_Format || !param) {
		return;
	}
	struct spa_video_info_raw info;
	if (spa_format_video_raw_parse(param, &info) < 0) {
		pw_stream_set_error(cast->stream, -EINVAL, "unparsable format");
		return;
	}
	enum cast_format wanted = cast_format_from_spa(info.format);
	enum cast_format chosen = cast_format_choose(&wanted, 1);
	if (chosen == CAST_FORMAT_NONE || (int)info.size.width != cast->width ||
			(int)info.size.height != cast->height) {
		pw_stream_set_error(cast->stream, -EINVAL, "format not offered");
		return;
	}
	cast->format = chosen;
	cast->interval_ns = cast_frame_interval_ns(info.max_framerate.num,
		info.max_framerate.denom);
	cast->stride = SPA_ROUND_UP_N(cast->width * 4, 4);
	wlr_log(WLR_INFO, "pipewire: cast node %u negotiated %s %dx%d, max %u/%u fps",
		cast->node_id, cast_format_name(chosen), cast->width, cast->height,
		info.max_framerate.num, info.max_framerate.denom);

	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[3];
	params[0] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
		SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(CAST_BUFFERS_DEFAULT,
			CAST_BUFFERS_MIN, CAST_BUFFERS_MAX),
		SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
		SPA_PARAM_BUFFERS_size, SPA_POD_Int(cast->stride * cast->height),
		SPA_PARAM_BUFFERS_stride, SPA_POD_Int(cast->stride),
		SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int(1 << SPA_DATA_MemFd));
	params[1] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
		SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
	params[2] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_VideoDamage),
		SPA_PARAM_META_size, SPA_POD_CHOICE_RANGE_Int(
			sizeof(struct spa_meta_region) * CAST_DAMAGE_REGIONS,
			sizeof(struct spa_meta_region) * 1,
			sizeof(struct spa_meta_region) * CAST_DAMAGE_REGIONS));
	pw_stream_update_params(cast->stream, params, 3);
}

static void free_buffer(struct cast_buffer *buffer) {
	if (buffer->data && buffer->data != MAP_FAILED) {
		munmap(buffer->data, buffer->size);
	}
	if (buffer->fd >= 0) {
		close(buffer->fd);
	}
	pixman_region32_fini(&buffer->damage);
	wl_list_remove(&buffer->link);
	free(buffer);
}

static void handle_add_buffer(void *data, struct pw_buffer *pwb) {
	struct pipewire_cast *cast = data;
	struct spa_data *d = &pwb->buffer->datas[0];
	if (!(d->type & (1u << SPA_DATA_MemFd))) {
		wlr_log(WLR_ERROR, "pipewire: the consumer wants no memfd buffers");
		pw_stream_set_error(cast->stream, -ENOTSUP, "memfd buffers only");
		return;
	}
	struct cast_buffer *buffer = zalloc(sizeof(*buffer));
	buffer->fd = -1;
	buffer->pw_buffer = pwb;
	pixman_region32_init_rect(&buffer->damage, 0, 0, cast->width, cast->height);
	wl_list_insert(&cast->buffers, &buffer->link);
	buffer->size = (size_t)cast->stride * cast->height;
	buffer->fd = memfd_create("oriel-cast", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (buffer->fd < 0 || ftruncate(buffer->fd, (off_t)buffer->size) < 0) {
		goto error;
	}
	fcntl(buffer->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	buffer->data = mmap(NULL, buffer->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		buffer->fd, 0);
	if (buffer->data == MAP_FAILED) {
		buffer->data = NULL;
		goto error;
	}
	d->type = SPA_DATA_MemFd;
	d->flags = SPA_DATA_FLAG_READABLE;
	d->fd = buffer->fd;
	d->mapoffset = 0;
	d->maxsize = (uint32_t)buffer->size;
	d->data = buffer->data;
	pwb->user_data = buffer;
	return;

error:
	wlr_log(WLR_ERROR, "pipewire: cannot allocate a %zu-byte memfd buffer: %s",
		buffer->size, strerror(errno));
	free_buffer(buffer);
	pw_stream_set_error(cast->stream, -ENOMEM, "cannot allocate buffers");
}

static void handle_remove_buffer(void *data, struct pw_buffer *pwb) {
	struct cast_buffer *buffer = pwb->user_data;
	if (!buffer) {
		return;
	}
	pwb->user_data = NULL;
	struct spa_data *d = &pwb->buffer->datas[0];
	d->data = NULL;
	d->fd = -1;
	free_buffer(buffer);
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = handle_state_changed,
	.param_changed = handle_param_changed,
	.add_buffer = handle_add_buffer,
	.remove_buffer = handle_remove_buffer,
};

static const struct spa_pod *build_enum_format(struct spa_pod_builder *b,
		int width, int height) {
	struct spa_rectangle size = SPA_RECTANGLE((uint32_t)width, (uint32_t)height);
	struct spa_fraction zero = SPA_FRACTION(0, 1);
	struct spa_fraction max = SPA_FRACTION(CAST_MAX_FPS, 1);
	struct spa_fraction min = SPA_FRACTION(1, 1);
	struct spa_pod_frame f[2];
	spa_pod_builder_push_object(b, &f[0], SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
	spa_pod_builder_add(b,
		SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
		SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw), 0);
	spa_pod_builder_prop(b, SPA_FORMAT_VIDEO_format, 0);
	spa_pod_builder_push_choice(b, &f[1], SPA_CHOICE_Enum, 0);
	spa_pod_builder_id(b, spa_from_cast_format(cast_formats_offered[0]));
	for (size_t i = 0; i < cast_formats_offered_len; i++) {
		spa_pod_builder_id(b, spa_from_cast_format(cast_formats_offered[i]));
	}
	spa_pod_builder_pop(b, &f[1]);
	spa_pod_builder_add(b,
		SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&size),
		SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&zero),
		SPA_FORMAT_VIDEO_maxFramerate, SPA_POD_CHOICE_RANGE_Fraction(&max, &min, &max),
		0);
	return spa_pod_builder_pop(b, &f[0]);
}

struct pipewire_cast *pipewire_cast_create_output(struct pipewire_core *core,
		struct output *output, const struct pipewire_cast_callbacks *callbacks,
		void *data) {
	if (!pipewire_core_connected(core)) {
		return NULL;
	}
	static unsigned counter;
	struct pipewire_cast *cast = zalloc(sizeof(*cast));
	cast->core = core;
	cast->output = output;
	cast->callbacks = callbacks;
	cast->data = data;
	cast->node_id = SPA_ID_INVALID;
	cast->width = output->wlr_output->width;
	cast->height = output->wlr_output->height;
	cast->stride = cast->width * 4;
	cast->interval_ns = cast_frame_interval_ns(CAST_MAX_FPS, 1);
	wl_list_init(&cast->buffers);
	pixman_region32_init(&cast->pending);
	wl_list_insert(&core->casts, &cast->link);
	wl_list_init(&cast->frame.link);
	wl_list_init(&cast->capture_destroy.link);
	cast->retry_timer = wl_event_loop_add_timer(output->server->loop,
		handle_retry_timer, cast);
	cast->pause_timer = wl_event_loop_add_timer(output->server->loop,
		handle_pause_timer, cast);

	char name[64];
	snprintf(name, sizeof(name), "oriel-cast-%u", ++counter);
	char description[128];
	snprintf(description, sizeof(description), "oriel output %s",
		output->wlr_output->name);
	struct pw_properties *props = pw_properties_new(
		PW_KEY_MEDIA_TYPE, "Video",
		PW_KEY_MEDIA_CATEGORY, "Capture",
		PW_KEY_MEDIA_ROLE, "Screen",
		PW_KEY_MEDIA_CLASS, "Video/Source",
		PW_KEY_NODE_NAME, name,
		PW_KEY_NODE_DESCRIPTION, description,
		NULL);
	cast->stream = pw_stream_new(core->core, name, props);
	if (!cast->stream || cast->width <= 0 || cast->height <= 0) {
		wlr_log(WLR_ERROR, "pipewire: cannot create a stream");
		goto error;
	}
	pw_stream_add_listener(cast->stream, &cast->stream_listener, &stream_events, cast);

	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[1] = { build_enum_format(&b, cast->width, cast->height) };
	int r = pw_stream_connect(cast->stream, PW_DIRECTION_OUTPUT, PW_ID_ANY,
		PW_STREAM_FLAG_DRIVER | PW_STREAM_FLAG_ALLOC_BUFFERS, params, 1);
	if (r < 0) {
		wlr_log(WLR_ERROR, "pipewire: cannot connect the stream: %s", spa_strerror(r));
		goto error;
	}

	cast->capture = output_capture_get(output);
	cast->frame.notify = handle_frame;
	wl_signal_add(&cast->capture->events.frame, &cast->frame);
	cast->capture_destroy.notify = handle_capture_destroy;
	wl_signal_add(&cast->capture->events.destroy, &cast->capture_destroy);
	return cast;

error:
	pipewire_cast_destroy(cast);
	return NULL;
}

void pipewire_cast_destroy(struct pipewire_cast *cast) {
	if (!cast) {
		return;
	}
	cast->closing = true;
	wl_list_remove(&cast->frame.link);
	wl_list_remove(&cast->capture_destroy.link);
	output_capture_put(cast->capture);
	cast_release_latest(cast);
	if (cast->stream) {
		/* Still listening: disconnecting gives back (remove_buffer) our memfds. */
		pw_stream_disconnect(cast->stream);
		spa_hook_remove(&cast->stream_listener);
		pw_stream_destroy(cast->stream);
	}
	struct cast_buffer *buffer, *tmp;
	wl_list_for_each_safe(buffer, tmp, &cast->buffers, link) {
		free_buffer(buffer);
	}
	if (cast->close_idle) {
		wl_event_source_remove(cast->close_idle);
	}
	if (cast->retry_timer) {
		wl_event_source_remove(cast->retry_timer);
	}
	if (cast->pause_timer) {
		wl_event_source_remove(cast->pause_timer);
	}
	pixman_region32_fini(&cast->pending);
	wl_list_remove(&cast->link);
	free(cast);
}

uint32_t pipewire_cast_node_id(const struct pipewire_cast *cast) {
	return cast->node_id;
}

uint64_t pipewire_cast_frames(const struct pipewire_cast *cast) {
	return cast->seq;
}
