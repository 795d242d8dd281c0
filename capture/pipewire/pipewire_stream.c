/* SPDX-License-Identifier: MIT */
/*
 * PipeWire casts: see pipewire_stream.h.
 *
 * The pw_loop runs inside oriel's wl_event_loop: its fd (an epoll fd that
 * becomes readable when PipeWire has work: socket data, its own timers and
 * events) is watched, and pw_loop_iterate(loop, 0) runs what is ready.
 * The stream drives its graph (PW_STREAM_FLAG_DRIVER): nothing runs until
 * we queue a frame and call pw_stream_trigger_process, so an idle output
 * costs no wakeups at all.
 *
 * Buffers are ours (PW_STREAM_FLAG_ALLOC_BUFFERS): memfds the CPU fills,
 * or, when the renderer has a DRM fd, dma-bufs from gbm that the renderer
 * draws into (cast_gbm.c, cast_dmabuf_buffer.c, cast_render.c). The
 * dma-buf offer comes first: per format, the modifiers the renderer
 * renders to, which the consumer need not fixate (DONT_FIXATE); we
 * test-allocate its answer and fixate the modifier that works, falling
 * back to implicit, linear, then memfd (format_negotiation.c decides).
 *
 * Checking the dma-buf path takes a GPU with a render node; here there is
 * none, the renderer is pixman and only memfd is offered. On such a
 * machine, with oriel on GLES2 (Session extra_env WLR_RENDERER=gles2
 * instead of the harness's pixman): the pipewire suite's consumer offers
 * no modifier, so it must still get memfd (the fallback); the dma-buf
 * path itself is test_portal_chromium.py (Chromium with
 * --enable-features=WebRTCPipeWireCapturer answers the DONT_FIXATE
 * choice) and a pipewiresrc that takes DMABuf caps with modifiers:
 *   gst-launch-1.0 pipewiresrc path=NODE always-copy=false !
 *     'video/x-raw(memory:DMABuf)' ! glupload ! glcolorconvert !
 *     gldownload ! pngenc snapshot=true ! filesink location=f.png
 * The pixels asserted must match the memfd path's. oriel's log shows
 * "fixating BGRx modifier 0x...", then "negotiated ..." and "dma-buf
 * buffers, modifier 0x..., N planes" for the node, and no "falling back
 * to memfd"; PIPEWIRE_DEBUG=4 on the consumer shows DmaBuf data.
 */

#include <drm_fourcc.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pipewire/pipewire.h>
#include <spa/buffer/meta.h>
#include <spa/pod/builder.h>
#include <spa/utils/result.h>
#include <wlr/render/pixman.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/util/log.h>
#include "capture/cast_gbm.h"
#include "capture/cast_source.h"
#include "capture/format_negotiation.h"
#include "capture/output_capture.h"
#include "capture/pipewire/pipewire_links.h"
#include "capture/pipewire/pipewire_stream.h"
#include "capture/scene_render.h"
#include "compositor/headless_backend.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"
#include <wlr/types/wlr_scene.h>
#include "capture/pipewire/pipewire_cast_private.h"

/*
 * Graph cycles run again after each frame, with growing gaps (ms from the
 * previous one): see kick_timer.
 */
static const int cast_kick_gaps_ms[] = { 20, 40, 100, 250, 600, 1500, 3000 };
static uint64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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
	struct wl_event_loop *loop = cast->server->loop;
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

static size_t cast_links(const struct pipewire_cast *cast) {
	return pipewire_links_count(&cast->core->links, cast->node_id);
}

/* The consumer is gone when a link from our node was seen and none is left. */
static void cast_check_consumer(struct pipewire_cast *cast) {
	if (cast->linked && cast_links(cast) == 0) {
		cast_schedule_close(cast, "the consumer went away");
	}
}

static void cast_consumer_joined(struct pipewire_cast *cast);

static bool handle_links_ours(void *data, uint32_t node) {
	struct pipewire_core *core = data;
	struct pipewire_cast *cast;
	wl_list_for_each(cast, &core->casts, link) {
		if (cast->stream && pw_stream_get_node_id(cast->stream) == node) {
			return true;
		}
	}
	return false;
}

static void handle_links_added(void *data, uint32_t node) {
	struct pipewire_core *core = data;
	struct pipewire_cast *cast;
	wl_list_for_each(cast, &core->casts, link) {
		if (cast->node_id == node) {
			cast->kick_until_ns = now_ns() + CAST_KICK_WINDOW_NS;
			cast->linked = true;
		}
	}
}

static void handle_links_removed(void *data, uint32_t node) {
	struct pipewire_core *core = data;
	struct pipewire_cast *cast;
	wl_list_for_each(cast, &core->casts, link) {
		if (cast->node_id == node) {
			cast_check_consumer(cast);
		}
	}
}

static void handle_links_active(void *data, uint32_t node) {
	struct pipewire_core *core = data;
	struct pipewire_cast *cast;
	wl_list_for_each(cast, &core->casts, link) {
		if (cast->node_id == node) {
			cast_consumer_joined(cast);
		}
	}
}

static const struct pipewire_links_callbacks links_callbacks = {
	.ours = handle_links_ours,
	.added = handle_links_added,
	.removed = handle_links_removed,
	.active = handle_links_active,
};

static void handle_core_done(void *data, uint32_t id, int seq) {
	struct pipewire_core *core = data;
	struct pipewire_cast *cast;
	wl_list_for_each(cast, &core->casts, link) {
		if (cast->gone && id == PW_ID_CORE && seq >= cast->gone_seq) {
			cast_schedule_close(cast, cast->gone_why);
		}
	}
}

static const struct pw_core_events core_events = {
	PW_VERSION_CORE_EVENTS,
	.done = handle_core_done,
	.error = handle_core_error,
};

/*
 * PipeWire 0.3.65 waits for a producer's buffers (a ping on our
 * connection, numbered by the daemon's count of messages to us) and ends
 * that wait early when any result with the same number comes from our
 * node. WirePlumber reads a new link's node formats at that very moment,
 * with request numbers that in a young session run in step with ours;
 * on a match the consumer gets our buffers before their memfds (see
 * pw_stream_connect). Answered syncs move our count well ahead of theirs.
 */
#define CORE_SEQUENCE_SKIP 4096

static void core_skip_sequence_numbers(struct pipewire_core *core) {
	for (int i = 0; i < CORE_SEQUENCE_SKIP; i++) {
		pw_core_sync(core->core, PW_ID_CORE, 0);
	}
}

struct pipewire_core *pipewire_core_create(struct wl_event_loop *wl_loop) {
	pw_init(NULL, NULL);
	struct pipewire_core *core = zalloc(sizeof(*core));
	wl_list_init(&core->casts);
	wl_list_init(&core->links.links);
	wl_array_init(&core->links.nodes);
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
		/* libpipewire says EHOSTDOWN ("Host is down") when no daemon listens. */
		const char *runtime = getenv("PIPEWIRE_RUNTIME_DIR");
		if (!runtime || !runtime[0]) {
			runtime = getenv("XDG_RUNTIME_DIR");
		}
		wlr_log(WLR_ERROR, "pipewire: cannot connect to the daemon (%s); no "
			"pipewire runs for %s: start pipewire and wireplumber in this "
			"session", strerror(errno), runtime ? runtime : "this session");
		goto error;
	}
	pw_core_add_listener(core->core, &core->core_listener, &core_events, core);
	if (!pipewire_links_init(&core->links, core->core, &links_callbacks, core)) {
		goto error;
	}
	core_skip_sequence_numbers(core);
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
	pipewire_links_finish(&core->links);
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

void cast_release_latest(struct pipewire_cast *cast) {
	if (cast->latest) {
		wlr_buffer_unlock(cast->latest);
		cast->latest = NULL;
	}
}

void cast_arm_retry(struct pipewire_cast *cast, uint64_t delay_ns) {
	int ms = (int)((delay_ns + 999999) / 1000000);
	wl_event_source_timer_update(cast->retry_timer, ms > 0 ? ms : 1);
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
	const pixman_box32_t *b = pixman_region32_rectangles(&cast->damage.pending, &n);
	size_t used = 0;
	if ((size_t)n > max) {
		/* Too many: their bounding box, which covers them all. */
		const pixman_box32_t *e = pixman_region32_extents(&cast->damage.pending);
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

/*
 * The part of the frame that shows something: all of it, except for a
 * region that reaches past the outputs, where it is the part on them
 * (the rest stays black).
 */
static void write_crop_meta(struct pipewire_cast *cast, struct spa_buffer *sb) {
	struct spa_meta_region *crop = spa_buffer_find_meta_data(sb, SPA_META_VideoCrop,
		sizeof(*crop));
	if (!crop) {
		return;
	}
	struct wlr_box shown = { 0, 0, cast->width, cast->height };
	if (cast->kind == CAST_SOURCE_REGION && cast->source) {
		struct wlr_box layout = *wlr_output_layout_get_box(cast->server->output_layout, NULL);
		struct wlr_box on_outputs;
		if (wlr_box_intersection(&on_outputs, &cast->source->region, &layout)) {
			shown = (struct wlr_box){
				.x = on_outputs.x - cast->source->region.x,
				.y = on_outputs.y - cast->source->region.y,
				.width = on_outputs.width, .height = on_outputs.height,
			};
		}
	}
	crop->region = SPA_REGION(shown.x, shown.y, (uint32_t)shown.width,
		(uint32_t)shown.height);
}

/* Where each plane of the frame is (dma-bufs), or the one memfd block. */
static void write_chunks(struct pipewire_cast *cast, struct cast_buffer *buffer,
		struct spa_buffer *sb, bool ok) {
	uint32_t n = buffer->dmabuf ? (uint32_t)buffer->planes : 1;
	for (uint32_t i = 0; i < n && i < sb->n_datas; i++) {
		struct spa_chunk *chunk = sb->datas[i].chunk;
		uint32_t stride = buffer->dmabuf ? buffer->strides[i] : (uint32_t)cast->stride;
		chunk->offset = buffer->dmabuf ? buffer->offsets[i] : 0;
		chunk->size = stride * (uint32_t)cast->height;
		chunk->stride = (int32_t)stride;
		chunk->flags = ok ? SPA_CHUNK_FLAG_NONE : SPA_CHUNK_FLAG_CORRUPTED;
	}
}

static void cast_produce(struct pipewire_cast *cast) {
	bool scene = cast->kind != CAST_SOURCE_OUTPUT;
	bool cursor = cast->cursor_mode == PIPEWIRE_CAST_CURSOR_METADATA && cast->cursor_dirty;
	if (cast->closing || cast->state != PW_STREAM_STATE_STREAMING ||
			(!scene && !cast->latest) ||
			(!pixman_region32_not_empty(&cast->damage.pending) && !cursor)) {
		return;
	}
	if (cast->neg_width != cast->width || cast->neg_height != cast->height ||
			(!scene && (cast->latest_width != cast->width ||
			cast->latest_height != cast->height))) {
		/* Renegotiating a new size: param_changed produces when it is done. */
		return;
	}
	if ((cast->dmabuf || scene) && cast->server->renderer->rendering) {
		/* Drawn by the renderer, never inside an output's frame: right after. */
		cast_arm_retry(cast, 0);
		return;
	}
	uint64_t now = now_ns();
	if (cast->last_frame_ns && now < cast->last_frame_ns + cast->interval_ns) {
		cast_arm_retry(cast, cast->last_frame_ns + cast->interval_ns - now);
		return;
	}
	struct pw_buffer *pwb;
	while ((pwb = pw_stream_dequeue_buffer(cast->stream))) {
		struct cast_buffer *b = pwb->user_data;
		if (b && b->width == cast->width && b->height == cast->height &&
				b->stride == cast->stride && b->dmabuf == cast->dmabuf) {
			break;
		}
		/*
		 * A buffer of the old size while the new one is negotiated: keep
		 * it out of the ring (never queued again); PipeWire removes it
		 * when the new buffers come.
		 */
		wlr_log(WLR_DEBUG, "pipewire: cast node %u: skipping a stale buffer",
			cast->node_id);
	}
	if (!pwb) {
		wlr_log(WLR_DEBUG, "pipewire: cast node %u: no free buffer", cast->node_id);
		/* The consumer holds every buffer: try again a frame later. */
		cast_arm_retry(cast, cast->interval_ns);
		return;
	}
	struct cast_buffer *buffer = pwb->user_data;
	struct spa_buffer *sb = pwb->buffer;

	const struct headless_cursor *embedded = NULL;
	if (cast->cursor_mode == PIPEWIRE_CAST_CURSOR_EMBEDDED) {
		/* Under the cursor again, so that it is drawn on source pixels. */
		cast->cursor_box = cast_cursor_embedded_box(cast, &embedded);
		const struct wlr_box *c = &cast->cursor_box;
		pixman_region32_union_rect(&buffer->slot.missed, &buffer->slot.missed,
			c->x, c->y, c->width, c->height);
	}
	pixman_region32_intersect_rect(&buffer->slot.missed, &buffer->slot.missed, 0, 0,
		cast->width, cast->height);
	bool ok = cast_fill_buffer(cast, buffer, embedded);
	if (ok) {
		pixman_region32_clear(&buffer->slot.missed);
	}
	write_chunks(cast, buffer, sb, ok);

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
	write_crop_meta(cast, sb);
	cast_cursor_write_meta(cast, sb);
	cast->cursor_dirty = false;
	cast->seq++;
	pw_stream_queue_buffer(cast->stream, pwb);
	pw_stream_trigger_process(cast->stream);
	if (now < cast->kick_until_ns) {
		cast->kicks = 0;
		wl_event_source_timer_update(cast->kick_timer, cast_kick_gaps_ms[0]);
	}

	pixman_region32_clear(&cast->damage.pending);
	/* latest stays: a cursor-only frame may need its pixels for a buffer. */
	cast->last_frame_ns = now;
}

static int handle_kick_timer(void *data) {
	struct pipewire_cast *cast = data;
	if (cast->closing || cast->state != PW_STREAM_STATE_STREAMING) {
		return 0;
	}
	pw_stream_trigger_process(cast->stream);
	if (++cast->kicks < SPA_N_ELEMENTS(cast_kick_gaps_ms)) {
		wl_event_source_timer_update(cast->kick_timer, cast_kick_gaps_ms[cast->kicks]);
	}
	return 0;
}

static int handle_retry_timer(void *data) {
	struct pipewire_cast *cast = data;
	cast_produce(cast);
	return 0;
}

void cast_renegotiate(struct pipewire_cast *cast, int width, int height);

static void handle_frame(struct wl_listener *listener, void *data) {
	struct pipewire_cast *cast = wl_container_of(listener, cast, frame);
	struct output_capture_frame *frame = data;
	if (frame->width != cast->width || frame->height != cast->height) {
		cast_renegotiate(cast, frame->width, frame->height);
	}
	damage_ring_add(&cast->damage, frame->damage);
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

void cast_damage_everything(struct pipewire_cast *cast) {
	damage_ring_add_rect(&cast->damage, 0, 0, cast->width, cast->height);
}

/* A new sink's first frame, or a new size: everything, soon. */
void cast_request_full(struct pipewire_cast *cast) {
	if (cast->kind == CAST_SOURCE_OUTPUT) {
		if (cast->capture) {
			output_capture_request_full(cast->capture);
		}
	} else {
		cast_arm_retry(cast, 0);
	}
}

/*
 * A consumer's link became active while the stream streams: it takes part
 * in our graph cycles from now on, but has no frame yet, and a still
 * source would send none. The next frame is the whole picture for it:
 * its damage metadata says everything, while each buffer is still brought
 * up to date with only what it missed (it holds the whole picture after).
 */
static void cast_consumer_joined(struct pipewire_cast *cast) {
	if (cast->closing || cast->state != PW_STREAM_STATE_STREAMING) {
		return; /* going to STREAMING sends everything anyway */
	}
	wlr_log(WLR_DEBUG, "pipewire: cast node %u: a consumer joined, sending the "
		"whole picture", cast->node_id);
	cast->kick_until_ns = now_ns() + CAST_KICK_WINDOW_NS;
	pixman_region32_union_rect(&cast->damage.pending, &cast->damage.pending, 0, 0,
		cast->width, cast->height);
	if (cast->kind == CAST_SOURCE_OUTPUT && !cast->latest) {
		/* No picture of the output kept: have the output draw one. */
		cast_damage_everything(cast);
		cast_request_full(cast);
		return;
	}
	/* From the event loop: not from inside PipeWire's registry events. */
	cast_arm_retry(cast, 0);
}

static void handle_state_changed(void *data, enum pw_stream_state old,
		enum pw_stream_state state, const char *error) {
	struct pipewire_cast *cast = data;
	cast->state = state;
	wlr_log(WLR_DEBUG, "pipewire: cast stream %u %s -> %s%s%s",
		pw_stream_get_node_id(cast->stream), pw_stream_state_as_string(old), pw_stream_state_as_string(state),
		error ? ": " : "", error ? error : "");
	uint32_t node_id = pw_stream_get_node_id(cast->stream);
	if (node_id != SPA_ID_INVALID) {
		cast->node_id = node_id;
		cast->linked = cast->linked || cast_links(cast) > 0;
		if (!cast->ready_sent && !cast->closing &&
				(state == PW_STREAM_STATE_PAUSED || state == PW_STREAM_STATE_STREAMING)) {
			cast->ready_sent = true;
			cast->callbacks->ready(cast, node_id, cast->data);
		}
	}
	switch (state) {
	case PW_STREAM_STATE_STREAMING:
		cast->kick_until_ns = now_ns() + CAST_KICK_WINDOW_NS;
		cast->streamed = true;
		cast->last_frame_ns = 0;
		cast_damage_everything(cast);
		cast_request_full(cast);
		break;
	case PW_STREAM_STATE_PAUSED:
		cast_release_latest(cast);
		wl_event_source_timer_update(cast->retry_timer, 0);
		/* A pause is the consumer leaving only when no link is left. */
		cast_check_consumer(cast);
		break;
	case PW_STREAM_STATE_ERROR:
		if (!cast->gone) {
			/* Ours (scene_source_gone) ends after its sync. */
			cast_schedule_close(cast, error ? error : "stream error");
		}
		break;
	case PW_STREAM_STATE_UNCONNECTED:
		cast_schedule_close(cast, "stream disconnected");
		break;
	case PW_STREAM_STATE_CONNECTING:
		break;
	}
}

/* ---- view and region sources ---- */

void cast_renegotiate(struct pipewire_cast *cast, int width, int height);

static int handle_refresh_timer(void *data) {
	struct pipewire_cast *cast = data;
	if (cast->closing || cast->refreshes <= 0) {
		return 0;
	}
	cast->refreshes--;
	if (cast->state == PW_STREAM_STATE_STREAMING) {
		cast_damage_everything(cast);
		cast_request_full(cast);
	}
	wl_event_source_timer_update(cast->refresh_timer, CAST_REFRESH_MS);
	return 0;
}

static int handle_linger_timer(void *data) {
	struct pipewire_cast *cast = data;
	cast_schedule_close(cast, cast->gone_why);
	return 0;
}

static void scene_source_gone(struct pipewire_cast *cast, const char *why) {
	if (cast->closing || cast->gone) {
		return;
	}
	/*
	 * An error state the consumer sees (its node's state and message),
	 * then the end, once PipeWire has told everyone.
	 */
	cast->gone = true;
	snprintf(cast->gone_why, sizeof(cast->gone_why), "%s", why);
	wlr_log(WLR_INFO, "pipewire: cast node %u: %s", cast->node_id, why);
	if (!cast->stream || !cast->core->connected) {
		cast_schedule_close(cast, why);
		return;
	}
	pw_stream_set_error(cast->stream, -ENOENT, "%s", why);
	/*
	 * Our node's error does not reach the streams linked to it: like the
	 * session manager does when a target goes away, put the consumers'
	 * own nodes in their error state, with why.
	 */
	pipewire_links_fail_consumers(&cast->core->links, cast->node_id, -ENOENT, why);
	cast->gone_seq = pw_core_sync(cast->core->core, PW_ID_CORE, 0);
	wl_event_source_timer_update(cast->linger_timer, CAST_LINGER_MS);
}

static void scene_source_add_damage(struct pipewire_cast *cast, pixman_region32_t *damage) {
	pixman_region32_intersect_rect(damage, damage, 0, 0, cast->width, cast->height);
	damage_ring_add(&cast->damage, damage);
}

/* Checks the source still exists and has our size; false when it ended. */
static bool scene_source_check(struct pipewire_cast *cast, struct wlr_box *box) {
	struct wlr_scene_node *root;
	if (!cast_source_box(cast->source, box, &root)) {
		scene_source_gone(cast, "the window closed");
		return false;
	}
	if (box->width != cast->width || box->height != cast->height) {
		cast_renegotiate(cast, box->width, box->height);
		cast_damage_everything(cast);
	}
	return true;
}

/* The source changed (once for all its casts): this cast's share of it. */
static void handle_source_damage(struct wl_listener *listener, void *data) {
	struct pipewire_cast *cast = wl_container_of(listener, cast, source_damage);
	struct cast_source_damage *event = data;
	struct wlr_box box;
	if (cast->closing || !scene_source_check(cast, &box)) {
		return;
	}
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	pixman_region32_copy(&damage, (pixman_region32_t *)event->region);
	scene_source_add_damage(cast, &damage);
	pixman_region32_fini(&damage);
	if (event->now) {
		cast_produce(cast);
	} else {
		/* Rendered from the event loop, once the scene has seen the commit too. */
		cast_arm_retry(cast, 0);
	}
}

static void handle_source_gone(struct wl_listener *listener, void *data) {
	struct pipewire_cast *cast = wl_container_of(listener, cast, source_gone);
	scene_source_gone(cast, data);
}

static void scene_source_listen(struct pipewire_cast *cast, struct cast_source *source) {
	cast->source = source;
	cast->source_damage.notify = handle_source_damage;
	wl_signal_add(&source->events.damage, &cast->source_damage);
	cast->source_gone.notify = handle_source_gone;
	wl_signal_add(&source->events.gone, &cast->source_gone);
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = handle_state_changed,
	.param_changed = cast_handle_param_changed,
	.add_buffer = cast_handle_add_buffer,
	.remove_buffer = cast_handle_remove_buffer,
};

/* The common part: the stream, offering width x height, not yet watching. */
static struct pipewire_cast *cast_new(struct pipewire_core *core, struct server *server,
		enum cast_source_kind kind, int width, int height, bool range,
		const char *description, const struct pipewire_cast_callbacks *callbacks,
		void *data) {
	if (!pipewire_core_connected(core)) {
		return NULL;
	}
	static unsigned counter;
	struct pipewire_cast *cast = zalloc(sizeof(*cast));
	cast->core = core;
	cast->server = server;
	cast->kind = kind;
	cast->resizable = range;
	cast->offer_range = range;
	cast->callbacks = callbacks;
	cast->data = data;
	cast->node_id = SPA_ID_INVALID;
	cast->width = width;
	cast->height = height;
	cast->stride = cast->width * 4;
	cast->interval_ns = cast_frame_interval_ns(CAST_MAX_FPS, 1);
	wl_list_init(&cast->buffers);
	wl_list_init(&cast->cursor_watches);
	damage_ring_init(&cast->damage);
	wl_list_insert(&core->casts, &cast->link);
	wl_list_init(&cast->frame.link);
	wl_list_init(&cast->capture_destroy.link);
	wl_list_init(&cast->source_damage.link);
	wl_list_init(&cast->source_gone.link);
	cast->retry_timer = wl_event_loop_add_timer(server->loop, handle_retry_timer, cast);
	cast->kick_timer = wl_event_loop_add_timer(server->loop, handle_kick_timer, cast);
	cast->linger_timer = wl_event_loop_add_timer(server->loop, handle_linger_timer, cast);
	cast->refresh_timer = wl_event_loop_add_timer(server->loop, handle_refresh_timer, cast);

	char name[64];
	snprintf(name, sizeof(name), "oriel-cast-%u", ++counter);
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

	cast->gbm = cast_gbm_get(server->renderer);
	for (size_t i = 0; i < cast_formats_offered_len; i++) {
		uint64_t mods[CAST_MAX_MODIFIERS];
		size_t n = cast->gbm ? cast_gbm_render_modifiers(cast->gbm,
			cast_format_drm(cast_formats_offered[i]), mods, CAST_MAX_MODIFIERS) : 0;
		cast_modifiers_init(&cast->modifiers[i], mods, n);
	}
	uint8_t buf[CAST_OFFER_BYTES];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[CAST_OFFER_PODS];
	uint32_t n_params = cast_offer_build(cast, &b, params);
	/*
	 * We allocate the buffers (memfds) so that consumers get real MemFd
	 * data: PipeWire's own allocation shows them MemPtr, which current
	 * WebRTC (Chromium, Firefox) does not read. PipeWire 0.3.65 has a race
	 * here: a reply to another request can complete the daemon's wait for
	 * our allocation early (sequence numbers collide), and the consumer is
	 * then handed the buffers before our memfds reached the daemon.
	 * core_skip_sequence_numbers keeps those numbers apart.
	 */
	int r = pw_stream_connect(cast->stream, PW_DIRECTION_OUTPUT, PW_ID_ANY,
		PW_STREAM_FLAG_DRIVER | PW_STREAM_FLAG_ALLOC_BUFFERS, params, n_params);
	if (r < 0) {
		wlr_log(WLR_ERROR, "pipewire: cannot connect the stream: %s", spa_strerror(r));
		goto error;
	}
	return cast;

error:
	pipewire_cast_destroy(cast);
	return NULL;
}

static struct pipewire_cast *cast_new_output(struct pipewire_core *core,
		struct output *output, bool resizable,
		const struct pipewire_cast_callbacks *callbacks, void *data) {
	char description[128];
	snprintf(description, sizeof(description), "oriel output %s",
		output->wlr_output->name);
	struct pipewire_cast *cast = cast_new(core, output->server, CAST_SOURCE_OUTPUT,
		output->wlr_output->width, output->wlr_output->height, resizable,
		description, callbacks, data);
	if (!cast) {
		return NULL;
	}
	cast->output = output;
	cast->capture = output_capture_get(output);
	cast->frame.notify = handle_frame;
	wl_signal_add(&cast->capture->events.frame, &cast->frame);
	cast->capture_destroy.notify = handle_capture_destroy;
	wl_signal_add(&cast->capture->events.destroy, &cast->capture_destroy);
	return cast;
}

struct pipewire_cast *pipewire_cast_create_output(struct pipewire_core *core,
		struct output *output, const struct pipewire_cast_callbacks *callbacks,
		void *data) {
	return cast_new_output(core, output, false, callbacks, data);
}

struct pipewire_cast *pipewire_cast_create_virtual(struct pipewire_core *core,
		struct output *output, const struct pipewire_cast_callbacks *callbacks,
		void *data) {
	return cast_new_output(core, output, true, callbacks, data);
}

struct pipewire_cast *pipewire_cast_create_view(struct pipewire_core *core,
		struct view *view, const struct pipewire_cast_callbacks *callbacks,
		void *data) {
	if (!view || !view->mapped || !view->content || view->geometry.width <= 0 ||
			view->geometry.height <= 0) {
		return NULL;
	}
	char description[128];
	snprintf(description, sizeof(description), "oriel window %" PRIu64, view->id);
	struct pipewire_cast *cast = cast_new(core, view->server, CAST_SOURCE_VIEW,
		view->geometry.width, view->geometry.height, false, description, callbacks,
		data);
	if (!cast) {
		return NULL;
	}
	scene_source_listen(cast, cast_source_get_view(view->server, view));
	return cast;
}

struct pipewire_cast *pipewire_cast_create_region(struct pipewire_core *core,
		struct server *server, const struct wlr_box *region,
		const struct pipewire_cast_callbacks *callbacks, void *data) {
	if (region->width < 1 || region->height < 1 ||
			region->width > SCENE_RENDER_MAX_SIDE || region->height > SCENE_RENDER_MAX_SIDE ||
			(uint64_t)region->width * (uint64_t)region->height > SCENE_RENDER_MAX_PIXELS) {
		return NULL;
	}
	char description[128];
	snprintf(description, sizeof(description), "oriel region %dx%d+%d+%d",
		region->width, region->height, region->x, region->y);
	struct pipewire_cast *cast = cast_new(core, server, CAST_SOURCE_REGION,
		region->width, region->height, false, description, callbacks, data);
	if (!cast) {
		return NULL;
	}
	scene_source_listen(cast, cast_source_get_region(server, region));
	return cast;
}

void pipewire_cast_destroy(struct pipewire_cast *cast) {
	if (!cast) {
		return;
	}
	cast->closing = true;
	wl_list_remove(&cast->frame.link);
	wl_list_remove(&cast->capture_destroy.link);
	wl_list_remove(&cast->source_damage.link);
	wl_list_remove(&cast->source_gone.link);
	cast_source_put(cast->source);
	output_capture_put(cast->capture);
	cast_cursor_finish(cast);
	cast_release_latest(cast);
	if (cast->stream) {
		/* Still listening: disconnecting gives back (remove_buffer) our memfds. */
		pw_stream_disconnect(cast->stream);
		spa_hook_remove(&cast->stream_listener);
		pw_stream_destroy(cast->stream);
	}
	struct cast_buffer *buffer, *tmp;
	wl_list_for_each_safe(buffer, tmp, &cast->buffers, link) {
		cast_buffer_free(buffer);
	}
	if (cast->close_idle) {
		wl_event_source_remove(cast->close_idle);
	}
	if (cast->retry_timer) {
		wl_event_source_remove(cast->retry_timer);
	}
	if (cast->kick_timer) {
		wl_event_source_remove(cast->kick_timer);
	}
	if (cast->linger_timer) {
		wl_event_source_remove(cast->linger_timer);
	}
	if (cast->refresh_timer) {
		wl_event_source_remove(cast->refresh_timer);
	}
	cast_gbm_put(cast->gbm); /* after the buffers from it */
	damage_ring_finish(&cast->damage); /* after the buffers' slots */
	wl_list_remove(&cast->link);
	free(cast);
}

uint32_t pipewire_cast_node_id(const struct pipewire_cast *cast) {
	return cast->node_id;
}

uint64_t pipewire_cast_frames(const struct pipewire_cast *cast) {
	return cast->seq;
}
