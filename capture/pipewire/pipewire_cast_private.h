/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_PIPEWIRE_PIPEWIRE_CAST_PRIVATE_H
#define ORIEL_CAPTURE_PIPEWIRE_PIPEWIRE_CAST_PRIVATE_H

/*
 * The inside of a PipeWire cast (pipewire_stream.h), shared by the files
 * that make it up:
 *   pipewire_stream.c        the core, the stream's states, producing frames,
 *                            sources, create and destroy
 *   pipewire_cast_format.c   what the stream offers, the consumer's format
 *                            and dma-buf modifier negotiation, new sizes
 *   pipewire_cast_buffers.c  the buffer ring: memfd and dma-buf buffers
 *   pipewire_cast_cursor.c   cursor modes: metadata and the embedded cursor
 *   pipewire_cast_fill.c     filling a buffer with what it missed, from the
 *                            output's frame or the scene source's render
 */

#include <stdbool.h>
#include <stdint.h>
#include <pixman.h>
#include <pipewire/pipewire.h>
#include <wayland-server-core.h>
#include <wlr/util/box.h>
#include "capture/damage_ring.h"
#include "capture/format_negotiation.h"
#include "capture/pipewire/pipewire_links.h"

struct cast_source;
struct headless_cursor;
struct output;
struct output_capture;
struct server;
struct spa_buffer;
struct spa_pod;
struct spa_pod_builder;
struct wlr_buffer;

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
	struct damage_slot slot; /* what it missed since it was last filled */
	/*
	 * What the renderer draws into. Scene sources with pixman, BGRx/BGRA:
	 * data itself. dma-buf buffers: the gbm buffer, and data is NULL.
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
	/* Damage since the last queued frame (the VideoDamage meta) and per buffer. */
	struct damage_ring damage;
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

/* Room for every format's modifiers (CAST_MAX_MODIFIERS each) and the rest. */
#define CAST_OFFER_BYTES 16384
#define CAST_OFFER_PODS (CAST_FORMATS_MAX + 2)

/* pipewire_stream.c */
void cast_release_latest(struct pipewire_cast *cast);
/* Produces a frame delay_ns from now, from the event loop. */
void cast_arm_retry(struct pipewire_cast *cast, uint64_t delay_ns);
/* Everything is pending, and every buffer misses everything. */
void cast_damage_everything(struct pipewire_cast *cast);
/* A new sink's first frame, or a new size: everything, soon. */
void cast_request_full(struct pipewire_cast *cast);

/* pipewire_cast_format.c */
uint32_t cast_offer_build(struct pipewire_cast *cast, struct spa_pod_builder *b,
	const struct spa_pod *params[static CAST_OFFER_PODS]);
void cast_offer_update(struct pipewire_cast *cast);
/* The source is now width x height: offer only that. */
void cast_renegotiate(struct pipewire_cast *cast, int width, int height);
void cast_handle_param_changed(void *data, uint32_t id, const struct spa_pod *param);

/* pipewire_cast_buffers.c */
void cast_handle_add_buffer(void *data, struct pw_buffer *pwb);
void cast_handle_remove_buffer(void *data, struct pw_buffer *pwb);
void cast_buffer_free(struct cast_buffer *buffer);

/* pipewire_cast_fill.c */
/*
 * Brings buffer up to date (its damage, not cleared here) with the
 * embedded cursor (NULL: none) over it, in the negotiated format.
 */
bool cast_fill_buffer(struct pipewire_cast *cast, struct cast_buffer *buffer,
	const struct headless_cursor *embedded);

/* pipewire_cast_cursor.c */
void cast_cursor_write_meta(struct pipewire_cast *cast, struct spa_buffer *sb);
/* EMBEDDED: the cursor image's box in source coordinates; empty when none. */
struct wlr_box cast_cursor_embedded_box(struct pipewire_cast *cast,
	const struct headless_cursor **hc_out);
/* Stops following the outputs' cursors. */
void cast_cursor_finish(struct pipewire_cast *cast);

#endif
