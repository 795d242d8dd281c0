/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_TEST_SOLID_H
#define ORIEL_TEST_SOLID_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-util.h>

struct client_globals;
struct shm_buffer;

/*
 * A wl_surface showing one colour at whatever size it was last given.
 * Once a new size has been presented (its frame callback fired) it
 * writes "W H\n" to the ready file, so tests wait on what is on screen.
 */
struct solid_surface {
	struct client_globals *globals;
	struct wl_surface *surface;
	uint32_t colour;
	bool rgb565; /* buffers in RGB565 rather than XRGB8888; no patches */
	const char *ready_file; /* may be NULL */
	struct wl_list buffers;     /* shm_buffer.link */
	struct shm_buffer *current; /* last buffer committed */
	struct wl_callback *frame;  /* pending for the newest size */
	int frame_width, frame_height;
};

void solid_surface_init(struct solid_surface *solid,
	struct client_globals *globals, uint32_t colour, const char *ready_file);
/* Call after ack_configure: resizes the buffer if needed and commits. */
bool solid_surface_commit(struct solid_surface *solid, int width, int height);
/*
 * Shows the surface's colour with the rectangle x, y, w, h (buffer
 * coordinates) filled with patch, in a new buffer of the current size,
 * and commits with only that rectangle damaged.
 */
bool solid_surface_commit_patch(struct solid_surface *solid, int x, int y,
	int w, int h, uint32_t patch);
/* Destroy the surface's role object first. */
void solid_surface_finish(struct solid_surface *solid);

#endif
