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
#include <wlr/render/pixman.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "capture/cast_dmabuf_buffer.h"
#include "capture/cast_gbm.h"
#include "capture/cast_render.h"
#include "capture/cast_source.h"
#include "capture/cast_spa_format.h"
#include "capture/format_negotiation.h"
#include "capture/output_capture.h"
#include "capture/pipewire_links.h"
#include "capture/pipewire_stream.h"
#include "capture/pixel_copy.h"
#include "capture/scene_render.h"
#include "compositor/headless_backend.h"
#include "compositor/output.h"
#include "compositor/pixel_buffer.h"
#include "compositor/server.h"
#include "compositor/util.h"
#include "compositor/view.h"
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_scene.h>

#define CAST_BUFFERS_DEFAULT 4
#define CAST_BUFFERS_MIN 2
#define CAST_BUFFERS_MAX 8
#define CAST_DAMAGE_REGIONS 16
#define CAST_LINGER_MS 1000
#define CAST_REFRESH_MS 60
#define CAST_REFRESHES 3
/* The largest cursor bitmap sent as metadata. */
#define CAST_CURSOR_MAX 256
#define CAST_CURSOR_META_SIZE(w, h) (sizeof(struct spa_meta_cursor) + \
	sizeof(struct spa_meta_bitmap) + (size_t)(w) * (h) * 4)
/*
 * Graph cycles run again after each frame, with growing gaps (ms from the
 * previous one): see kick_timer.
 */
static const int cast_kick_gaps_ms[] = { 20, 40, 100, 250, 600, 1500, 3000 };
/* How long after a consumer came frames are followed by those cycles. */
#define CAST_KICK_WINDOW_NS (5 * 1000000000ull)

struct pipewire_core {
	struct pw_loop *loop;
	struct pw_context *context;
	struct pw_core *core;
	struct spa_hook core_listener;
	/* Links out of our nodes, from the registry: who consumes a cast. */
	struct pipewire_links links;
	struct wl_event_source *source;
	struct wl_list casts; /* pipewire_cast.link */
	bool connected;
};

struct cast_buffer {
	struct pw_buffer *pw_buffer;
	void *data;
	size_t size;
	int fd;
	int width, height, stride; /* the format it was allocated for */
	pixman_region32_t damage; /* missed since it was last filled */
	/*
	 * Scene sources with pixman: the renderer draws right into data.
	 * dma-buf buffers: the gbm buffer itself, and data is NULL.
	 */
	struct wlr_buffer *target;
	bool dmabuf;
	int planes;
	uint32_t offsets[4], strides[4];
	struct wl_list link; /* pipewire_cast.buffers */
};

enum cast_source_kind {
	CAST_SOURCE_OUTPUT,
	CAST_SOURCE_VIEW,
	CAST_SOURCE_REGION,
};

/* Metadata cursor mode: one output's cursor plane. */
struct cast_cursor_watch {
	struct pipewire_cast *cast;
	struct output_capture *capture; /* for its destroy signal */
	struct wl_listener shape;
	struct wl_listener motion;
	struct wl_listener capture_destroy;
	struct wl_list link; /* pipewire_cast.cursor_watches */
};

struct pipewire_cast {
	struct pipewire_core *core;
	struct server *server;
	enum cast_source_kind kind;
	struct output *output;
	/* View and region sources: rendered from the scene, shared by casts. */
	struct cast_source *source;
	struct wl_listener source_damage;
	struct wl_listener source_gone;
	uint32_t cursor_mode; /* PIPEWIRE_CAST_CURSOR_* */
	struct wl_list cursor_watches; /* cast_cursor_watch.link */
	bool cursor_dirty;       /* moved or changed since the last frame */
	uint32_t cursor_serial;  /* the shape the consumer has */
	bool cursor_sent;
	struct wlr_box cursor_box; /* EMBEDDED: where the cursor is drawn; empty when not */

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

	/* The source's size (what we offer) and the negotiated format. */
	int width, height, stride;
	int neg_width, neg_height; /* 0 until negotiated */
	enum cast_format format;
	uint64_t interval_ns;

	/*
	 * The dma-buf path: NULL gbm (no DRM fd) offers memfd only. Each of
	 * cast_formats_offered has its modifier negotiation; one fixated
	 * modifier is offered first until the consumer takes it.
	 */
	struct cast_gbm *gbm;
	struct cast_modifiers modifiers[CAST_FORMATS_MAX];
	bool has_fixated;
	enum cast_format fixated_format;
	uint64_t fixated_modifier;
	bool dmabuf; /* the negotiated format has a modifier */
	uint64_t modifier;
	int planes;

	struct wl_list buffers; /* cast_buffer.link */
	/* Damage since the last queued frame (the VideoDamage meta). */
	pixman_region32_t pending;
	/* The output's newest frame while pending damage waits for a buffer. */
	struct wlr_buffer *latest;
	int latest_width, latest_height;
	uint64_t last_frame_ns;
	uint64_t seq;

	struct wl_event_source *retry_timer;
	/*
	 * The stream drives the graph: a cycle runs only when we trigger it.
	 * A consumer whose node is not running yet when a frame is triggered
	 * (it is still starting, or joins a running stream) is not part of
	 * that cycle; the frame waits in the link, and on a still source no
	 * other cycle would come. So for a while after a consumer came
	 * (kick_until_ns), cycles run a few more times after each frame. A
	 * cycle that finds the frame already taken delivers nothing:
	 * consumers see no duplicates.
	 */
	struct wl_event_source *kick_timer;
	size_t kicks; /* index into cast_kick_gaps_ms */
	uint64_t kick_until_ns;
	/*
	 * The source is gone and the stream set to its error state: the cast
	 * ends once PipeWire answered a sync (so everyone saw the error first),
	 * or when the linger timer fires.
	 */
	int gone_seq;
	bool gone;
	char gone_why[128];
	struct wl_event_source *linger_timer;
	/*
	 * Full frames again a few times after a renegotiation (a new size): a
	 * frame queued while the consumer's port still switches buffers can
	 * be lost, and an idle source would not send another.
	 */
	struct wl_event_source *refresh_timer;
	int refreshes;
	bool renegotiated; /* the size changed since the first format */
	/*
	 * A virtual output's cast: the stream offers a range of sizes, and the
	 * size the consumer fixates becomes the output's (output_set_size).
	 */
	bool resizable;
	bool offer_range; /* what we offer now is that range */
	/*
	 * Whether a link from our node was ever seen. The consumer is gone
	 * when the last link goes away, not when the stream pauses: PipeWire
	 * pauses streams while it rearranges the graph (another consumer
	 * leaving), and a pause of that kind may last any time.
	 */
	bool linked;
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
		wlr_log(WLR_ERROR, "pipewire: cannot connect to the daemon: %s",
			strerror(errno));
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

/*
 * Draws the buffer's missed damage straight into it, when the cast is
 * alone on its source. False when it cannot: the buffer then loses its
 * target on errors and is filled from the source's pixels instead.
 */
static bool scene_source_render_into(struct pipewire_cast *cast,
		struct cast_buffer *buffer) {
	if (cast_source_shared(cast->source)) {
		return false; /* one render for all: copied from the shared pixels */
	}
	int r = cast_source_draw(cast->source, buffer->target, &buffer->damage);
	if (r == -EBUSY || r == -ENOENT) {
		return false;
	}
	if (r < 0) {
		wlr_log(WLR_ERROR, "pipewire: cast node %u: cannot draw into its buffers: %s",
			cast->node_id, strerror(-r));
		wlr_buffer_drop(buffer->target);
		buffer->target = NULL;
		return false;
	}
	return true;
}

/* Copies region of the source's pixels into dst as BGRx. */
static void scene_source_copy(struct pipewire_cast *cast, const struct scene_pixels *pixels,
		const pixman_region32_t *region, uint8_t *dst) {
	bool swap = pixels->drm_format == DRM_FORMAT_ABGR8888;
	int n;
	const pixman_box32_t *b = pixman_region32_rectangles(
		(pixman_region32_t *)region, &n);
	for (int i = 0; i < n; i++) {
		for (int y = b[i].y1; y < b[i].y2; y++) {
			const uint8_t *s = pixels->data + (size_t)y * pixels->stride +
				(size_t)b[i].x1 * 4;
			uint8_t *d = dst + (size_t)y * cast->stride + (size_t)b[i].x1 * 4;
			pixel_copy_row(d, s, b[i].x2 - b[i].x1, swap);
		}
	}
}

/* ---- cursor metadata ---- */

/*
 * The visible cursor in source coordinates (the pointer's hotspot), from
 * the headless outputs' cursor planes; NULL when it is not on the source.
 */
static const struct headless_cursor *cast_cursor(struct pipewire_cast *cast,
		int *x, int *y) {
	struct wlr_box box = {0};
	if (cast->kind != CAST_SOURCE_OUTPUT) {
		struct wlr_scene_node *root;
		if (!cast_source_box(cast->source, &box, &root)) {
			return NULL;
		}
	}
	struct output *output;
	wl_list_for_each(output, &cast->server->outputs, link) {
		if (cast->kind == CAST_SOURCE_OUTPUT && output != cast->output) {
			continue;
		}
		const struct headless_cursor *hc = headless_output_cursor(output->wlr_output);
		if (!hc || !hc->visible || !hc->pixels) {
			continue;
		}
		if (cast->kind == CAST_SOURCE_OUTPUT) {
			*x = hc->x;
			*y = hc->y;
			return hc;
		}
		struct wlr_box output_box;
		output_layout_box(output, &output_box);
		int lx = output_box.x + hc->x, ly = output_box.y + hc->y;
		if (lx < output_box.x || ly < output_box.y ||
				lx >= output_box.x + output_box.width ||
				ly >= output_box.y + output_box.height) {
			continue;
		}
		*x = lx - box.x;
		*y = ly - box.y;
		return hc;
	}
	return NULL;
}

static void write_cursor_meta(struct pipewire_cast *cast, struct spa_buffer *sb) {
	struct spa_meta *meta = spa_buffer_find_meta(sb, SPA_META_Cursor);
	if (!meta || meta->size < sizeof(struct spa_meta_cursor)) {
		return;
	}
	struct spa_meta_cursor *mc = meta->data;
	int x, y;
	const struct headless_cursor *hc = cast_cursor(cast, &x, &y);
	if (!hc || x < 0 || y < 0 || x >= cast->width || y >= cast->height) {
		/* id 0: no cursor on this source now. */
		mc->id = 0;
		mc->bitmap_offset = 0;
		cast->cursor_sent = false;
		return;
	}
	mc->id = 1;
	mc->flags = 0;
	mc->position.x = x;
	mc->position.y = y;
	mc->hotspot.x = hc->hotspot_x;
	mc->hotspot.y = hc->hotspot_y;
	mc->bitmap_offset = 0;
	if (cast->cursor_sent && cast->cursor_serial == hc->serial) {
		return; /* the consumer has this shape */
	}
	if (hc->width <= 0 || hc->height <= 0 || hc->width > CAST_CURSOR_MAX ||
			hc->height > CAST_CURSOR_MAX ||
			meta->size < CAST_CURSOR_META_SIZE(hc->width, hc->height)) {
		return;
	}
	mc->bitmap_offset = sizeof(*mc);
	struct spa_meta_bitmap *bitmap = SPA_PTROFF(mc, mc->bitmap_offset,
		struct spa_meta_bitmap);
	/* ARGB8888 little-endian: bytes B,G,R,A, premultiplied. */
	bitmap->format = SPA_VIDEO_FORMAT_BGRA;
	bitmap->size.width = (uint32_t)hc->width;
	bitmap->size.height = (uint32_t)hc->height;
	bitmap->stride = hc->width * 4;
	bitmap->offset = sizeof(*bitmap);
	memcpy(SPA_PTROFF(bitmap, bitmap->offset, void), hc->pixels,
		(size_t)hc->width * hc->height * 4);
	cast->cursor_serial = hc->serial;
	cast->cursor_sent = true;
}

/* EMBEDDED: the cursor image's box in source coordinates; empty when none. */
static struct wlr_box embedded_cursor_box(struct pipewire_cast *cast,
		const struct headless_cursor **hc_out) {
	int x, y;
	const struct headless_cursor *hc = cast_cursor(cast, &x, &y);
	*hc_out = hc;
	if (!hc || hc->width <= 0 || hc->height <= 0) {
		return (struct wlr_box){0};
	}
	return (struct wlr_box){ x - hc->hotspot_x, y - hc->hotspot_y, hc->width, hc->height };
}

static void add_damage_box(struct pipewire_cast *cast, const struct wlr_box *box) {
	if (box->width <= 0 || box->height <= 0) {
		return;
	}
	pixman_region32_union_rect(&cast->pending, &cast->pending,
		box->x, box->y, box->width, box->height);
	pixman_region32_intersect_rect(&cast->pending, &cast->pending,
		0, 0, cast->width, cast->height);
	struct cast_buffer *buffer;
	wl_list_for_each(buffer, &cast->buffers, link) {
		pixman_region32_union_rect(&buffer->damage, &buffer->damage,
			box->x, box->y, box->width, box->height);
	}
}

static void handle_cursor_change(struct wl_listener *listener, struct pipewire_cast *cast) {
	if (cast->closing) {
		return;
	}
	if (cast->cursor_mode == PIPEWIRE_CAST_CURSOR_EMBEDDED) {
		/* Where it was and where it is now: pixels to bring up to date. */
		const struct headless_cursor *hc;
		struct wlr_box now = embedded_cursor_box(cast, &hc);
		add_damage_box(cast, &cast->cursor_box);
		add_damage_box(cast, &now);
		cast->cursor_box = now;
	}
	cast->cursor_dirty = true;
	/* Sent from the event loop, not from inside the cursor update. */
	arm_retry(cast, 0);
}

static void handle_cursor_shape(struct wl_listener *listener, void *data) {
	struct cast_cursor_watch *watch = wl_container_of(listener, watch, shape);
	handle_cursor_change(listener, watch->cast);
}

static void handle_cursor_motion(struct wl_listener *listener, void *data) {
	struct cast_cursor_watch *watch = wl_container_of(listener, watch, motion);
	handle_cursor_change(listener, watch->cast);
}

static void cursor_watch_destroy(struct cast_cursor_watch *watch) {
	wl_list_remove(&watch->shape.link);
	wl_list_remove(&watch->motion.link);
	wl_list_remove(&watch->capture_destroy.link);
	wl_list_remove(&watch->link);
	free(watch);
}

static void handle_cursor_capture_destroy(struct wl_listener *listener, void *data) {
	struct cast_cursor_watch *watch = wl_container_of(listener, watch, capture_destroy);
	cursor_watch_destroy(watch);
}

void pipewire_cast_set_cursor_mode(struct pipewire_cast *cast, uint32_t mode) {
	cast->cursor_mode = mode;
	if (mode == PIPEWIRE_CAST_CURSOR_HIDDEN || !wl_list_empty(&cast->cursor_watches)) {
		return;
	}
	struct output *output;
	wl_list_for_each(output, &cast->server->outputs, link) {
		if (cast->kind == CAST_SOURCE_OUTPUT && output != cast->output) {
			continue;
		}
		struct cast_cursor_watch *watch = zalloc(sizeof(*watch));
		watch->cast = cast;
		watch->shape.notify = handle_cursor_shape;
		watch->motion.notify = handle_cursor_motion;
		if (!headless_output_add_cursor_listeners(output->wlr_output, &watch->shape,
				&watch->motion)) {
			free(watch);
			continue;
		}
		watch->capture = output_capture_get(output);
		watch->capture_destroy.notify = handle_cursor_capture_destroy;
		wl_signal_add(&watch->capture->events.destroy, &watch->capture_destroy);
		wl_list_insert(&cast->cursor_watches, &watch->link);
	}
	cast->cursor_dirty = true;
}

/*
 * Draws the buffer's missed damage into its dma-buf with the renderer: the
 * output's committed buffer, or the scene, then an embedded cursor.
 */
static bool cast_render_dmabuf(struct pipewire_cast *cast, struct cast_buffer *buffer,
		const struct headless_cursor *embedded) {
	struct wlr_renderer *renderer = cast->server->renderer;
	struct cast_render_cursor cursor = {0};
	if (embedded && embedded->pixels && cast->cursor_box.width > 0) {
		cursor = (struct cast_render_cursor){
			.pixels = embedded->pixels,
			.width = embedded->width, .height = embedded->height,
			.x = cast->cursor_box.x, .y = cast->cursor_box.y,
		};
	}
	int r;
	if (cast->kind == CAST_SOURCE_OUTPUT) {
		r = cast_render_into(renderer, buffer->target, cast->latest, &buffer->damage,
			cursor.pixels ? &cursor : NULL);
	} else {
		r = cast_source_draw(cast->source, buffer->target, &buffer->damage);
		if (r == -ENOENT) {
			return false;
		}
		if (r == 0 && cursor.pixels) {
			r = cast_render_into(renderer, buffer->target, NULL, &buffer->damage,
				&cursor);
		}
	}
	if (r < 0) {
		wlr_log(WLR_ERROR, "pipewire: cast node %u: cannot draw into a dma-buf: %s",
			cast->node_id, strerror(-r));
	}
	return r == 0;
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
			(!pixman_region32_not_empty(&cast->pending) && !cursor)) {
		return;
	}
	if (cast->neg_width != cast->width || cast->neg_height != cast->height ||
			(!scene && (cast->latest_width != cast->width ||
			cast->latest_height != cast->height))) {
		/* Renegotiating a new size: param_changed produces when it is done. */
		return;
	}
	if (cast->dmabuf && cast->server->renderer->rendering) {
		/* Drawn on the GPU, never inside an output's frame: right after. */
		arm_retry(cast, 0);
		return;
	}
	uint64_t now = now_ns();
	if (cast->last_frame_ns && now < cast->last_frame_ns + cast->interval_ns) {
		arm_retry(cast, cast->last_frame_ns + cast->interval_ns - now);
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
		arm_retry(cast, cast->interval_ns);
		return;
	}
	struct cast_buffer *buffer = pwb->user_data;
	struct spa_buffer *sb = pwb->buffer;

	const struct headless_cursor *embedded = NULL;
	if (cast->cursor_mode == PIPEWIRE_CAST_CURSOR_EMBEDDED) {
		/* Under the cursor again, so that it is drawn on source pixels. */
		cast->cursor_box = embedded_cursor_box(cast, &embedded);
		const struct wlr_box *c = &cast->cursor_box;
		pixman_region32_union_rect(&buffer->damage, &buffer->damage,
			c->x, c->y, c->width, c->height);
	}
	pixman_region32_intersect_rect(&buffer->damage, &buffer->damage, 0, 0,
		cast->width, cast->height);
	bool ok;
	if (buffer->dmabuf) {
		ok = cast_render_dmabuf(cast, buffer, embedded);
	} else if (scene && buffer->target && scene_source_render_into(cast, buffer)) {
		ok = true;
	} else if (scene) {
		const struct scene_pixels *pixels =
			cast_source_pixels(cast->source, cast->width, cast->height);
		ok = pixels != NULL;
		if (ok) {
			scene_source_copy(cast, pixels, &buffer->damage, buffer->data);
		}
	} else {
		struct output_capture_frame frame = {
			.buffer = cast->latest,
			.damage = &buffer->damage,
			.width = cast->latest_width,
			.height = cast->latest_height,
		};
		ok = output_capture_frame_copy(cast->capture, &frame, &buffer->damage,
			buffer->data, cast->stride, cast->width, cast->height, 0, 0, false);
	}
	if (ok && !buffer->dmabuf && embedded && embedded->pixels &&
			cast->cursor_box.width > 0) {
		/* The pixels are still BGRx: fix_format converts the cursor too. */
		pixel_blend_over(buffer->data, cast->width, cast->height, cast->stride,
			embedded->pixels, embedded->width, embedded->height,
			cast->cursor_box.x, cast->cursor_box.y);
	}
	if (ok && !buffer->dmabuf) {
		fix_format(cast, buffer->data, &buffer->damage);
	}
	if (ok) {
		pixman_region32_clear(&buffer->damage);
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
	write_cursor_meta(cast, sb);
	cast->cursor_dirty = false;
	cast->seq++;
	pw_stream_queue_buffer(cast->stream, pwb);
	pw_stream_trigger_process(cast->stream);
	if (now < cast->kick_until_ns) {
		cast->kicks = 0;
		wl_event_source_timer_update(cast->kick_timer, cast_kick_gaps_ms[0]);
	}

	pixman_region32_clear(&cast->pending);
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

static void cast_renegotiate(struct pipewire_cast *cast, int width, int height);

static void handle_frame(struct wl_listener *listener, void *data) {
	struct pipewire_cast *cast = wl_container_of(listener, cast, frame);
	struct output_capture_frame *frame = data;
	if (frame->width != cast->width || frame->height != cast->height) {
		cast_renegotiate(cast, frame->width, frame->height);
	}
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

/* A new sink's first frame, or a new size: everything, soon. */
static void cast_request_full(struct pipewire_cast *cast) {
	if (cast->kind == CAST_SOURCE_OUTPUT) {
		if (cast->capture) {
			output_capture_request_full(cast->capture);
		}
	} else {
		arm_retry(cast, 0);
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
	pixman_region32_union_rect(&cast->pending, &cast->pending, 0, 0,
		cast->width, cast->height);
	if (cast->kind == CAST_SOURCE_OUTPUT && !cast->latest) {
		/* No picture of the output kept: have the output draw one. */
		damage_everything(cast);
		cast_request_full(cast);
		return;
	}
	/* From the event loop: not from inside PipeWire's registry events. */
	arm_retry(cast, 0);
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
		damage_everything(cast);
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

static void cast_renegotiate(struct pipewire_cast *cast, int width, int height);

static int handle_refresh_timer(void *data) {
	struct pipewire_cast *cast = data;
	if (cast->closing || cast->refreshes <= 0) {
		return 0;
	}
	cast->refreshes--;
	if (cast->state == PW_STREAM_STATE_STREAMING) {
		damage_everything(cast);
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
	pixman_region32_union(&cast->pending, &cast->pending, damage);
	struct cast_buffer *buffer;
	wl_list_for_each(buffer, &cast->buffers, link) {
		pixman_region32_union(&buffer->damage, &buffer->damage, damage);
	}
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
		damage_everything(cast);
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
		arm_retry(cast, 0);
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

/*
 * The consumer fixated another size in the range a virtual output's cast
 * offers: the output takes it. Its next frames have that size.
 */
static bool cast_take_size(struct pipewire_cast *cast, int width, int height) {
	if (!cast->resizable || !cast->output || width < 1 || height < 1 ||
			width > PIPEWIRE_CAST_VIRTUAL_MAX_SIDE ||
			height > PIPEWIRE_CAST_VIRTUAL_MAX_SIDE) {
		return false;
	}
	wlr_log(WLR_INFO, "pipewire: cast node %u: the consumer wants %dx%d, resizing %s",
		cast->node_id, width, height, cast->output->wlr_output->name);
	if (!output_set_size(cast->output, width, height)) {
		return false;
	}
	cast->width = width;
	cast->height = height;
	cast_release_latest(cast);
	pixman_region32_clear(&cast->pending);
	return true;
}

static void cast_update_offer(struct pipewire_cast *cast);

static struct cast_modifiers *cast_modifiers_of(struct pipewire_cast *cast,
		enum cast_format format) {
	for (size_t i = 0; i < cast_formats_offered_len; i++) {
		if (cast_formats_offered[i] == format) {
			return &cast->modifiers[i];
		}
	}
	return NULL;
}

/* No dma-buf worked: memfd is all we offer from now on. */
static void cast_dmabuf_give_up(struct pipewire_cast *cast, const char *why) {
	wlr_log(WLR_INFO, "pipewire: cast node %u: %s, falling back to memfd",
		cast->node_id, why);
	for (size_t i = 0; i < cast_formats_offered_len; i++) {
		cast_modifiers_clear(&cast->modifiers[i]);
	}
	cast->has_fixated = false;
	cast->dmabuf = false;
	cast_update_offer(cast);
}

/*
 * The consumer's answer to our modifiers (DONT_FIXATE): test-allocates it
 * step by step (format_negotiation.c) and offers the modifier that works
 * alone first, or memfd only when none does.
 */
static void cast_fixate_modifier(struct pipewire_cast *cast, enum cast_format format,
		const uint64_t *mods, size_t n) {
	struct cast_modifiers *m = cast_modifiers_of(cast, format);
	if (!m) {
		cast_dmabuf_give_up(cast, "a format we do not offer with modifiers");
		return;
	}
	uint32_t drm_format = cast_format_drm(format);
	uint64_t fixated = CAST_MOD_INVALID;
	enum cast_modifier_step step = cast_modifiers_answer(m, mods, n);
	while (step != CAST_STEP_MEMFD) {
		uint64_t got;
		int planes;
		if (cast_gbm_test(cast->gbm, drm_format, cast->width, cast->height, step,
				m->explicit, m->n_explicit, &got, &planes) &&
				cast_modifiers_fixate(m, got, &fixated)) {
			break;
		}
		wlr_log(WLR_DEBUG, "pipewire: cast node %u: no %s %dx%d dma-buf with %s",
			cast->node_id, cast_format_name(format), cast->width, cast->height,
			step == CAST_STEP_EXPLICIT ? "the consumer's modifiers" :
			step == CAST_STEP_IMPLICIT ? "the implicit modifier" : "LINEAR");
		step = cast_modifiers_failed(m);
	}
	if (step == CAST_STEP_MEMFD) {
		cast_dmabuf_give_up(cast, "no dma-buf the consumer takes can be allocated");
		return;
	}
	wlr_log(WLR_INFO, "pipewire: cast node %u: fixating %s modifier 0x%016" PRIx64,
		cast->node_id, cast_format_name(format), fixated);
	cast->has_fixated = true;
	cast->fixated_format = format;
	cast->fixated_modifier = fixated;
	cast_update_offer(cast);
}

/*
 * Which buffers the consumer's format means: sets cast->dmabuf (and the
 * plane count). False when the format was not final: a modifier choice
 * to fixate, or one that cannot be allocated; the offer changed and the
 * consumer answers again.
 */
static bool cast_choose_buffers(struct pipewire_cast *cast, enum cast_format format,
		const struct spa_pod *param) {
	uint64_t mods[CAST_MAX_MODIFIERS];
	bool dont_fixate = false;
	int n = cast_spa_format_modifiers(param, mods, CAST_MAX_MODIFIERS, &dont_fixate);
	cast->dmabuf = false;
	if (n < 0) {
		return true; /* no modifier: memfd */
	}
	if (!cast->gbm || n == 0) {
		cast_dmabuf_give_up(cast, "the consumer's modifiers are none of ours");
		return false;
	}
	if (dont_fixate) {
		cast_fixate_modifier(cast, format, mods, (size_t)n);
		return false;
	}
	uint64_t got;
	int planes;
	if (!cast_gbm_test(cast->gbm, cast_format_drm(format), cast->width, cast->height,
			cast_modifier_step_of(mods[0]), mods, 1, &got, &planes)) {
		cast_dmabuf_give_up(cast, "the fixated modifier cannot be allocated");
		return false;
	}
	cast->dmabuf = true;
	cast->modifier = mods[0];
	cast->planes = planes;
	return true;
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
	bool other_size = (int)info.size.width != cast->width ||
		(int)info.size.height != cast->height;
	if (other_size && cast->offer_range && chosen != CAST_FORMAT_NONE) {
		if (!cast_take_size(cast, (int)info.size.width, (int)info.size.height)) {
			pw_stream_set_error(cast->stream, -EINVAL, "cannot take that size");
			return;
		}
		other_size = false;
	}
	if (other_size) {
		if (cast->neg_width) {
			/* The old size, while a new one is being offered: wait for it. */
			wlr_log(WLR_DEBUG, "pipewire: cast node %u: format %ux%u is stale",
				cast->node_id, info.size.width, info.size.height);
			return;
		}
		chosen = CAST_FORMAT_NONE;
	}
	if (chosen == CAST_FORMAT_NONE) {
		pw_stream_set_error(cast->stream, -EINVAL, "format not offered");
		return;
	}
	if (!cast_choose_buffers(cast, chosen, param)) {
		return;
	}
	cast->neg_width = cast->width;
	cast->neg_height = cast->height;
	cast->format = chosen;
	cast->interval_ns = cast_frame_interval_ns(info.max_framerate.num,
		info.max_framerate.denom);
	cast->stride = SPA_ROUND_UP_N(cast->width * 4, 4);
	wlr_log(WLR_INFO, "pipewire: cast node %u negotiated %s %dx%d, max %u/%u fps",
		cast->node_id, cast_format_name(chosen), cast->width, cast->height,
		info.max_framerate.num, info.max_framerate.denom);
	if (cast->dmabuf) {
		wlr_log(WLR_INFO, "pipewire: cast node %u: dma-buf buffers, modifier "
			"0x%016" PRIx64 ", %d planes", cast->node_id, cast->modifier, cast->planes);
	}

	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[4];
	uint32_t n_params = 3;
	if (cast->dmabuf) {
		/* Size and strides are the driver's: the consumer reads the chunks. */
		params[0] = spa_pod_builder_add_object(&b,
			SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
			SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(CAST_BUFFERS_DEFAULT,
				CAST_BUFFERS_MIN, CAST_BUFFERS_MAX),
			SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(cast->planes),
			SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int(1 << SPA_DATA_DmaBuf));
	} else {
		params[0] = spa_pod_builder_add_object(&b,
			SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
			SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(CAST_BUFFERS_DEFAULT,
				CAST_BUFFERS_MIN, CAST_BUFFERS_MAX),
			SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
			SPA_PARAM_BUFFERS_size, SPA_POD_Int(cast->stride * cast->height),
			SPA_PARAM_BUFFERS_stride, SPA_POD_Int(cast->stride),
			SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int(1 << SPA_DATA_MemFd));
	}
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
	if (cast->cursor_mode == PIPEWIRE_CAST_CURSOR_METADATA) {
		params[n_params++] = spa_pod_builder_add_object(&b,
			SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
			SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Cursor),
			SPA_PARAM_META_size, SPA_POD_CHOICE_RANGE_Int(
				CAST_CURSOR_META_SIZE(64, 64), CAST_CURSOR_META_SIZE(1, 1),
				CAST_CURSOR_META_SIZE(CAST_CURSOR_MAX, CAST_CURSOR_MAX)));
		cast->cursor_sent = false;
	}
	pw_stream_update_params(cast->stream, params, n_params);
	/* Everything again, once the buffers of this format came (add_buffer). */
	damage_everything(cast);
}

static void free_buffer(struct cast_buffer *buffer) {
	wlr_buffer_drop(buffer->target); /* before the memory it draws into */
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

/* The first frame into new buffers: see handle_add_buffer. */
static void cast_buffers_changed(struct pipewire_cast *cast) {
	/*
	 * A frame queued right away can reach a consumer whose port does not
	 * use the new buffers yet, and be lost: the next one comes a frame
	 * later (output sources: at the next output commit).
	 */
	if (cast->kind == CAST_SOURCE_OUTPUT) {
		cast_request_full(cast);
	} else {
		arm_retry(cast, cast->interval_ns);
	}
	if (cast->renegotiated) {
		cast->refreshes = CAST_REFRESHES;
		wl_event_source_timer_update(cast->refresh_timer, CAST_REFRESH_MS);
	}
}

/* A gbm buffer the renderer draws into, its planes handed to PipeWire. */
/* A buffer of the ring, at the cast's size, missing everything so far. */
static struct cast_buffer *cast_buffer_new(struct pipewire_cast *cast,
		struct pw_buffer *pwb) {
	struct cast_buffer *buffer = zalloc(sizeof(*buffer));
	buffer->fd = -1;
	buffer->pw_buffer = pwb;
	buffer->width = cast->width;
	buffer->height = cast->height;
	buffer->stride = cast->stride;
	pixman_region32_init_rect(&buffer->damage, 0, 0, cast->width, cast->height);
	wl_list_insert(&cast->buffers, &buffer->link);
	return buffer;
}

static void add_dmabuf_buffer(struct pipewire_cast *cast, struct pw_buffer *pwb) {
	struct spa_buffer *sb = pwb->buffer;
	if (!(sb->datas[0].type & (1u << SPA_DATA_DmaBuf)) ||
			sb->n_datas < (uint32_t)cast->planes) {
		wlr_log(WLR_ERROR, "pipewire: the consumer wants no dma-buf buffers");
		pw_stream_set_error(cast->stream, -ENOTSUP, "dma-buf buffers expected");
		return;
	}
	struct gbm_bo *bo = cast_gbm_bo_create_fixated(cast->gbm,
		cast_format_drm(cast->format), cast->width, cast->height, cast->modifier);
	struct wlr_buffer *target = bo ? cast_dmabuf_buffer_create(bo) : NULL;
	struct wlr_dmabuf_attributes attribs;
	if (!target || !wlr_buffer_get_dmabuf(target, &attribs) ||
			attribs.n_planes != cast->planes) {
		wlr_log(WLR_ERROR, "pipewire: cannot allocate a %dx%d dma-buf with modifier "
			"0x%016" PRIx64, cast->width, cast->height, cast->modifier);
		wlr_buffer_drop(target);
		pw_stream_set_error(cast->stream, -ENOMEM, "cannot allocate buffers");
		return;
	}
	struct cast_buffer *buffer = cast_buffer_new(cast, pwb);
	buffer->target = target;
	buffer->dmabuf = true;
	buffer->planes = attribs.n_planes;
	for (int i = 0; i < attribs.n_planes; i++) {
		struct spa_data *d = &sb->datas[i];
		buffer->offsets[i] = attribs.offset[i];
		buffer->strides[i] = attribs.stride[i];
		d->type = SPA_DATA_DmaBuf;
		d->flags = SPA_DATA_FLAG_READABLE;
		d->fd = attribs.fd[i]; /* the buffer's own: closed with it */
		d->mapoffset = 0;
		d->maxsize = attribs.stride[i] * (uint32_t)cast->height;
		d->data = NULL;
	}
	pwb->user_data = buffer;
	cast_buffers_changed(cast);
}

static void handle_add_buffer(void *data, struct pw_buffer *pwb) {
	struct pipewire_cast *cast = data;
	if (cast->dmabuf) {
		add_dmabuf_buffer(cast, pwb);
		return;
	}
	struct spa_data *d = &pwb->buffer->datas[0];
	if (!(d->type & (1u << SPA_DATA_MemFd))) {
		wlr_log(WLR_ERROR, "pipewire: the consumer wants no memfd buffers");
		pw_stream_set_error(cast->stream, -ENOTSUP, "memfd buffers only");
		return;
	}
	struct cast_buffer *buffer = cast_buffer_new(cast, pwb);
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
	/*
	 * Drawn as BGRx like every other source: the cursor is blended and
	 * fix_format runs after, as for copied pixels.
	 */
	if (cast->kind != CAST_SOURCE_OUTPUT && !cast_format_swaps_rb(cast->format) &&
			wlr_renderer_is_pixman(cast->server->renderer)) {
		buffer->target = pixel_buffer_create(buffer->data, cast->width, cast->height,
			(size_t)cast->stride, DRM_FORMAT_XRGB8888, NULL, NULL);
	}
	cast_buffers_changed(cast);
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
	for (uint32_t i = 0; i < pwb->buffer->n_datas; i++) {
		pwb->buffer->datas[i].data = NULL;
		pwb->buffer->datas[i].fd = -1;
	}
	free_buffer(buffer);
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = handle_state_changed,
	.param_changed = handle_param_changed,
	.add_buffer = handle_add_buffer,
	.remove_buffer = handle_remove_buffer,
};

/* Room for every format's modifiers (CAST_MAX_MODIFIERS each) and the rest. */
#define CAST_OFFER_BYTES 16384
#define CAST_OFFER_PODS (CAST_FORMATS_MAX + 2)

/*
 * What the stream offers: the fixated dma-buf format alone first (while
 * the consumer has yet to take it), each format with its modifiers, then
 * every format without a modifier (memfd). Without gbm, only the last.
 */
static uint32_t cast_build_offer(struct pipewire_cast *cast, struct spa_pod_builder *b,
		const struct spa_pod *params[static CAST_OFFER_PODS]) {
	struct cast_spa_size size = {
		.width = cast->width, .height = cast->height, .range = cast->offer_range,
	};
	uint32_t n = 0;
	if (cast->gbm && cast->has_fixated) {
		const struct spa_pod *pod = cast_spa_format_dmabuf(b, &size,
			cast->fixated_format, &cast->fixated_modifier, 1, true);
		if (pod) {
			params[n++] = pod;
		}
	}
	for (size_t i = 0; cast->gbm && i < cast_formats_offered_len; i++) {
		const struct cast_modifiers *m = &cast->modifiers[i];
		const struct spa_pod *pod = cast_spa_format_dmabuf(b, &size,
			cast_formats_offered[i], m->offer, m->n_offer, false);
		if (pod) {
			params[n++] = pod;
		}
	}
	params[n++] = cast_spa_format_plain(b, &size);
	return n;
}

static void cast_update_offer(struct pipewire_cast *cast) {
	uint8_t buf[CAST_OFFER_BYTES];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[CAST_OFFER_PODS];
	uint32_t n = cast_build_offer(cast, &b, params);
	pw_stream_update_params(cast->stream, params, n);
}

/*
 * The source changed size: offer only the new size. The consumer answers
 * with a new format (param_changed), and PipeWire gives us new buffers.
 */
static void cast_renegotiate(struct pipewire_cast *cast, int width, int height) {
	if (width <= 0 || height <= 0 || cast->closing) {
		return;
	}
	wlr_log(WLR_INFO, "pipewire: cast node %u: the source is now %dx%d, renegotiating",
		cast->node_id, width, height);
	cast->width = width;
	cast->height = height;
	cast->renegotiated = true;
	cast->offer_range = false;
	cast_release_latest(cast);
	pixman_region32_clear(&cast->pending);
	/* A new size: the consumer fixates a modifier again. */
	cast->has_fixated = false;
	cast_update_offer(cast);
}

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
	pixman_region32_init(&cast->pending);
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
	uint32_t n_params = cast_build_offer(cast, &b, params);
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
	struct cast_cursor_watch *cwatch, *ctmp;
	wl_list_for_each_safe(cwatch, ctmp, &cast->cursor_watches, link) {
		struct output_capture *capture = cwatch->capture;
		cursor_watch_destroy(cwatch);
		output_capture_put(capture);
	}
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
