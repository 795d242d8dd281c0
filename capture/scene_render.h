/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_SCENE_RENDER_H
#define ORIEL_CAPTURE_SCENE_RENDER_H

/*
 * Offscreen rendering of a scene subtree through the server's renderer
 * (pixman or GLES2): what screenshots, and later the PipeWire and VNC
 * sinks, capture. The subtree is drawn in stacking order as the outputs
 * show it, seen through a layout rectangle, over opaque black. Nothing
 * outside the subtree is drawn, so a window's capture never shows what
 * overlaps it.
 */

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <wlr/util/box.h>

struct wlr_allocator;
struct wlr_buffer;
struct wlr_renderer;
struct wlr_scene_node;

/* Largest capture side, and area (256 MiB of pixels), a peer may ask for. */
#define SCENE_RENDER_MAX_SIDE 16384
#define SCENE_RENDER_MAX_PIXELS (64u * 1024 * 1024)

struct scene_render_params {
	/* Drawn with its descendants; disabled nodes are skipped with theirs. */
	struct wlr_scene_node *root;
	/* Layout rectangle mapped onto the target's top-left corner. */
	struct wlr_box box;
	/* Target pixels per layout unit (an output's scale); 0 means 1. */
	float scale;
	/*
	 * Target pixels to redraw (and read back), NULL for all. Pixels outside
	 * keep what the target held, so a sink can redraw only what changed.
	 */
	const pixman_region32_t *damage;
};

/* Pixels read back to the CPU, 4 bytes each. */
struct scene_pixels {
	uint32_t width, height, stride;
	/* DRM_FORMAT_ABGR8888 (bytes R,G,B,A) or DRM_FORMAT_ARGB8888 (B,G,R,A). */
	uint32_t drm_format;
	uint8_t *data;
};

/*
 * The target size for params, in pixels; false when the box is empty or
 * larger than the limits above.
 */
bool scene_render_target_size(const struct scene_render_params *params,
	int *width, int *height);

/*
 * Draws params into buffer, which must have the target size. When pixels
 * is not NULL the drawn (damaged) area is also read back into it: give
 * pixels with data NULL to have them allocated (and the format chosen),
 * or the same pixels again to update them in place. Returns 0 or a
 * negative errno (-EBUSY while the renderer is drawing something else).
 */
int scene_render_to_buffer(struct wlr_renderer *renderer, struct wlr_buffer *buffer,
	const struct scene_render_params *params, struct scene_pixels *pixels);

/*
 * A width x height buffer from allocator that renderer draws into (and
 * reads, and samples as a texture): shm memory under pixman, a GPU buffer
 * under GLES2. NULL when there is none (logged) or while the renderer draws.
 */
struct wlr_buffer *scene_render_buffer_create(struct wlr_renderer *renderer,
	struct wlr_allocator *allocator, int width, int height);

/*
 * Draws params into a temporary buffer from allocator and reads it back
 * into pixels, as scene_render_to_buffer does.
 */
int scene_render_to_pixels(struct wlr_renderer *renderer, struct wlr_allocator *allocator,
	const struct scene_render_params *params, struct scene_pixels *pixels);

/* Frees pixels' data; the struct may be reused. */
void scene_pixels_finish(struct scene_pixels *pixels);

#endif
