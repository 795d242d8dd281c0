#ifndef ORIEL_CAPTURE_CAST_SOURCE_H
#define ORIEL_CAPTURE_CAST_SOURCE_H

/*
 * The scene sources of PipeWire casts: a window (its own surface tree) or
 * a layout region, rendered from the scene. Every cast of the same window,
 * or of the same region, shares one cast_source: it follows the source's
 * damage once (the outputs' frames, the window's commits) and hands it to
 * each cast through `damage`, and it renders the source once per change
 * into pixels that every cast copies its buffers' missed damage from.
 * A cast alone on its source may draw straight into its buffers instead
 * (cast_source_draw), with no copy. Casts with dma-buf buffers draw into
 * them on the GPU with cast_source_draw each, shared or not.
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
#include "capture/scene_render.h"

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
	/* The source as last rendered, up to date except where stale. */
	struct scene_pixels pixels;
	pixman_region32_t stale;
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
 * Brings the shared pixels up to date, rendering what changed since the
 * last render (at most once per change, whichever cast asks first), and
 * returns them; NULL when the source is gone, is not width x height, or
 * cannot be rendered (logged).
 */
const struct scene_pixels *cast_source_pixels(struct cast_source *source,
	int width, int height);

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
