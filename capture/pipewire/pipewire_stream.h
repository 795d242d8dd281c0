/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_PIPEWIRE_PIPEWIRE_STREAM_H
#define ORIEL_CAPTURE_PIPEWIRE_PIPEWIRE_STREAM_H

/*
 * The PipeWire sink of the capture engine. A pipewire_core is oriel's
 * connection to the PipeWire daemon, run inside oriel's wl_event_loop (the
 * pw_loop's fd is a source of it, iterated without blocking; no thread
 * loop). A pipewire_cast joins an output source (capture/output_capture.h)
 * to a pw_stream: a driving Video/Source node with buffers that we
 * allocate (memfds, or dma-bufs the renderer draws into when it has a
 * DRM fd), SPA_META_Header and SPA_META_VideoDamage on every buffer.
 *
 * Work is damage-driven and consumer-paced: a frame is produced only when
 * the output presented damage, a buffer is free and the negotiated max
 * framerate allows it; damage in between is merged. Each buffer of the
 * ring remembers the damage it missed, so reusing it copies only that.
 *
 * A cast ends (callbacks->closed, called from an idle callback, never
 * from inside a caller's call) when its consumer goes away, the stream
 * fails, the output goes away or PipeWire disconnects. The owner then
 * destroys it.
 */

#include <stdbool.h>
#include <stdint.h>

struct output;
struct server;
struct view;
struct wlr_box;
struct wl_event_loop;
struct pipewire_core;
struct pipewire_cast;

/* Connects to the PipeWire daemon; NULL (logged) when there is none. */
struct pipewire_core *pipewire_core_create(struct wl_event_loop *loop);
/* All casts of core must have been destroyed. NULL is a no-op. */
void pipewire_core_destroy(struct pipewire_core *core);
/* False once the daemon went away (restart): make a new core. */
bool pipewire_core_connected(const struct pipewire_core *core);

struct pipewire_cast_callbacks {
	/* The stream has its node id (once). */
	void (*ready)(struct pipewire_cast *cast, uint32_t node_id, void *data);
	/* The cast ended; why is a sentence for the log. Destroy it now. */
	void (*closed)(struct pipewire_cast *cast, const char *why, void *data);
};

struct pipewire_cast *pipewire_cast_create_output(struct pipewire_core *core,
	struct output *output, const struct pipewire_cast_callbacks *callbacks,
	void *data);
/*
 * A virtual output's cast: the stream offers any size up to
 * PIPEWIRE_CAST_VIRTUAL_MAX_SIDE (the output's by default), and the size
 * the consumer fixates is given to the output (output_set_size).
 */
#define PIPEWIRE_CAST_VIRTUAL_MAX_SIDE 8192
struct pipewire_cast *pipewire_cast_create_virtual(struct pipewire_core *core,
	struct output *output, const struct pipewire_cast_callbacks *callbacks,
	void *data);
/*
 * A window: its own surface tree only (never what covers it), at its
 * geometry's size, renegotiated when it resizes. When the window closes
 * the stream goes to an error state and the cast ends. NULL when the view
 * is not mapped.
 */
struct pipewire_cast *pipewire_cast_create_view(struct pipewire_core *core,
	struct view *view, const struct pipewire_cast_callbacks *callbacks,
	void *data);
/*
 * A layout rectangle (scale 1), which may span outputs; what no output
 * shows is black. NULL when the size is out of SCENE_RENDER_MAX_* bounds.
 */
struct pipewire_cast *pipewire_cast_create_region(struct pipewire_core *core,
	struct server *server, const struct wlr_box *region,
	const struct pipewire_cast_callbacks *callbacks, void *data);
/* Cursor modes, numbered as the ScreenCast portal does. */
#define PIPEWIRE_CAST_CURSOR_HIDDEN 1
#define PIPEWIRE_CAST_CURSOR_EMBEDDED 2
#define PIPEWIRE_CAST_CURSOR_METADATA 4
/*
 * Call right after create. METADATA: every frame carries SPA_META_Cursor
 * (position of the pointer in the source, hotspot, and the bitmap when
 * the shape changed); cursor motion alone produces a frame. EMBEDDED:
 * the cursor is drawn into the frames (headless outputs keep it on a
 * plane, so the source pixels never hold it). HIDDEN: neither.
 */
void pipewire_cast_set_cursor_mode(struct pipewire_cast *cast, uint32_t mode);
/* NULL is a no-op. Never calls the callbacks. */
void pipewire_cast_destroy(struct pipewire_cast *cast);
/* SPA_ID_INVALID (~0) until ready. */
uint32_t pipewire_cast_node_id(const struct pipewire_cast *cast);
/* Frames queued so far. */
uint64_t pipewire_cast_frames(const struct pipewire_cast *cast);

#endif
