/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_CAST_SOURCE_H
#define ORIEL_CAPTURE_CAST_SOURCE_H

/*
 * The scene sources of PipeWire casts: a window (its own surface tree) or
 * a layout region, rendered from the scene. Every cast of the same window,
 * or of the same region, shares one cast_source: it follows the source's
 * damage once (the outputs' frames, the window's commits) and hands it to
 * each cast through `damage`, and it renders the source once per change
 * into one shared buffer from the server's allocator (cast_source_render:
 * shm memory under pixman, a GPU buffer under GLES2). Each cast then brings
 * each of its buffers up to date with only the damage that buffer missed:
 * buffers the renderer draws into (dma-bufs; memfds under pixman) get it
 * blitted by the renderer (cast_render_into), other memfds copy it
 * (cast_source_read). Nobody renders the scene again for the same change.
 * A cast alone on its source draws straight into a buffer the renderer
 * draws into instead (cast_source_draw), with no shared buffer and no copy.
 *
 * Each render is logged at debug level as
 *   "pipewire: source DESCRIPTION: render N, R rect(s)"
 * (DESCRIPTION: "window ID" or "region WxH+X+Y"; N counts the source's
 * renders), which the pipewire suite counts.
 *
 * Sources are shared like output captures: get returns the existing one
 * or makes it, put drops a reference.
 */

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include <wlr/util/box.h>
#include "capture/buffer_read.h"

struct server;
struct view;
struct wlr_buffer;
struct wlr_scene_node;

struct cast_source_damage {
	/* Source coordinates; not clipped to the source's size. */
	const pixman_region32_t *region;
	/*
	 * True for an output's frame: the scene shows it already, produce now.
	 * False for the window's commit: produce from the event loop, once
	 * the scene has seen it too.
	 */
	bool now;
};

struct cast_source {
	struct server *server;
	char description[64];
	struct {
		struct wl_signal damage; /* struct cast_source_damage * */
		struct wl_signal gone;   /* const char *why: the window closed */
	} events;

	/* private */
	uint64_t view_id; /* 0 for a region */
	struct wlr_box region;
	int refs;
	/*
	 * The source as last rendered, up to date except where stale; NULL
	 * while one cast alone draws straight into its buffers.
	 */
	struct wlr_buffer *shared;
	pixman_region32_t stale;
	struct buffer_read_state read;
	uint64_t renders;
	struct wl_list watches; /* cast_source_watch.link */
	struct wl_listener surface_commit;
	struct wl_listener surface_destroy;
	struct wl_list link; /* sources */
};

/* NULL when the view is not mapped. */
struct cast_source *cast_source_get_view(struct server *server, struct view *view);
struct cast_source *cast_source_get_region(struct server *server,
	const struct wlr_box *region);
/* NULL is a no-op. */
void cast_source_put(struct cast_source *source);

/*
 * The source's box in layout coordinates and the scene node it draws;
 * false when it shows nothing (the window is gone or unmapped).
 */
bool cast_source_box(struct cast_source *source, struct wlr_box *box,
	struct wlr_scene_node **root);

/*
 * Brings the shared buffer up to date, rendering what changed since the
 * last render (at most once per change, whichever cast asks first), and
 * returns it, width x height, owned by the source (valid until the source
 * changes size or is put). NULL when the source is gone, is not
 * width x height, cannot be rendered (logged), or the renderer is drawing
 * something else.
 */
struct wlr_buffer *cast_source_render(struct cast_source *source, int width,
	int height);

/*
 * Copies region of the shared buffer, as cast_source_render left it, into
 * dst (the source's size, stride bytes a row) as B,G,R,x bytes. False when
 * it cannot (logged).
 */
bool cast_source_read(struct cast_source *source, const pixman_region32_t *region,
	uint8_t *dst, int stride);

/*
 * For a cast alone on its source: draws damage (source coordinates) of the
 * source straight into target. 0, -ENOENT when the source is gone or not
 * target's size, or scene_render_to_buffer's error.
 */
int cast_source_draw(struct cast_source *source, struct wlr_buffer *target,
	const pixman_region32_t *damage);

/* Whether more than one cast shares the source. */
bool cast_source_shared(const struct cast_source *source);

#endif
