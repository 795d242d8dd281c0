/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_OUTPUT_CAPTURE_H
#define ORIEL_CAPTURE_OUTPUT_CAPTURE_H

/*
 * The capture engine's output source. It watches one output's commits,
 * accumulates the damage between them and, for every commit that presents
 * a buffer, emits `frame` with that buffer and the damage since the last
 * frame. Sinks (VNC, later PipeWire) copy only the damaged rectangles.
 * An idle output commits nothing, so its capture costs nothing.
 *
 * Captures are shared: output_capture_get returns the output's capture,
 * creating it for the first sink; output_capture_put drops a reference.
 * When the output goes away, `destroy` is emitted: sinks remove their
 * listeners and forget the capture, without calling put.
 */

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include "capture/output_moves.h"

struct output;
struct wlr_buffer;

struct output_capture_frame {
	struct wlr_buffer *buffer;  /* valid during the signal only */
	pixman_region32_t *damage; /* buffer coordinates */
	int width, height;
	/* The one window move this frame shows, or NULL (output_moves.h). */
	const struct output_capture_move *move;
};

struct output_capture {
	struct output *output;
	struct {
		struct wl_signal frame;   /* struct output_capture_frame * */
		/*
		 * After output_capture_request_pixels, a frame with nothing
		 * changed: its damage is empty (struct output_capture_frame *).
		 */
		struct wl_signal pixels;
		struct wl_signal destroy; /* the output is going away */
	} events;

	/* private */
	int refs;
	bool locks_render; /* holds a wlr_output_lock_attach_render */
	bool want_pixels; /* output_capture_request_pixels */
	struct wlr_buffer *scanout_buffer; /* a client's, between precommit and commit */
	pixman_region32_t damage;
	struct output_moves moves;
	struct wl_list link; /* captures */
	struct wl_listener precommit;
	struct wl_listener commit;
	struct wl_listener output_destroy;
};

struct output_capture *output_capture_get(struct output *output);
/* NULL is a no-op. */
void output_capture_put(struct output_capture *capture);
/* Damages the whole output and schedules a frame: a new sink's first frame. */
void output_capture_request_full(struct output_capture *capture);
/*
 * Schedules a frame without damaging anything, for a sink that let its
 * copy of the pixels go: the next commit emits `frame` if something
 * changed meanwhile, else `pixels`. Either way the frame's buffer holds
 * the whole picture.
 */
void output_capture_request_pixels(struct output_capture *capture);

/*
 * Copies the rectangles of region (buffer coordinates, clipped to the
 * buffer) from frame->buffer into dst at the same coordinates shifted by
 * (dx, dy). dst holds bytes B,G,R,X (XRGB8888 little-endian), or R,G,B,X
 * with dst_rgbx. Reads the buffer's memory directly, or through the
 * renderer for GPU buffers.
 */
bool output_capture_frame_copy(struct output_capture *capture,
	const struct output_capture_frame *frame, const pixman_region32_t *region,
	uint8_t *dst, int dst_stride, int dst_width, int dst_height, int dx, int dy,
	bool dst_rgbx);

/*
 * A buffer's pixels in memory as rows of bytes B,G,R,X, to read in
 * place until output_capture_pixels_end; false (nothing to end) when
 * they are not there so: a GPU buffer, or another byte order.
 */
struct output_capture_pixels {
	const uint8_t *data;
	size_t stride;
	bool accessed; /* private */
};
bool output_capture_pixels_begin(struct wlr_buffer *buffer,
	struct output_capture_pixels *pixels);
void output_capture_pixels_end(struct wlr_buffer *buffer,
	struct output_capture_pixels *pixels);

#endif
