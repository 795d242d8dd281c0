/* SPDX-License-Identifier: MIT */
#include "solid.h"

#include <stdio.h>
#include <wayland-client.h>

#include "client.h"
#include "shm.h"

static void handle_frame_done(void *data, struct wl_callback *callback,
		uint32_t time)
{
	struct solid_surface *solid = data;
	char text[32];

	wl_callback_destroy(callback);
	solid->frame = NULL;
	fprintf(stderr, "%s: presented %dx%d\n", solid->globals->prog,
		solid->frame_width, solid->frame_height);
	if (solid->ready_file) {
		snprintf(text, sizeof(text), "%d %d\n",
			solid->frame_width, solid->frame_height);
		client_write_file(solid->ready_file, text);
	}
}

static const struct wl_callback_listener frame_listener = {
	.done = handle_frame_done,
};

void solid_surface_init(struct solid_surface *solid,
		struct client_globals *globals, uint32_t colour,
		const char *ready_file)
{
	*solid = (struct solid_surface){
		.globals = globals,
		.colour = colour,
		.ready_file = ready_file,
	};
	wl_list_init(&solid->buffers);
	solid->surface = wl_compositor_create_surface(globals->compositor);
}

bool solid_surface_commit(struct solid_surface *solid, int width, int height)
{
	struct shm_buffer *cur = solid->current;

	/* Same size: the commit only applies the acked configure. */
	if (cur && cur->width == width && cur->height == height) {
		wl_surface_commit(solid->surface);
		return true;
	}

	struct shm_buffer *buffer = shm_buffer_create(solid->globals->shm,
		&solid->buffers, width, height, solid->colour, solid->rgb565);
	if (!buffer)
		return false;
	shm_buffer_retire(cur);
	solid->current = buffer;
	shm_buffer_attach(buffer, solid->surface);
	if (solid->globals->compositor_version >= 4)
		wl_surface_damage_buffer(solid->surface, 0, 0, width, height);
	else
		wl_surface_damage(solid->surface, 0, 0, width, height);

	/*
	 * Only the newest size may be reported: an older callback could
	 * fire after a newer buffer already replaced what it proved.
	 */
	if (solid->frame)
		wl_callback_destroy(solid->frame);
	solid->frame = wl_surface_frame(solid->surface);
	wl_callback_add_listener(solid->frame, &frame_listener, solid);
	solid->frame_width = width;
	solid->frame_height = height;

	wl_surface_commit(solid->surface);
	return true;
}

bool solid_surface_commit_patch(struct solid_surface *solid, int x, int y,
		int w, int h, uint32_t patch)
{
	struct shm_buffer *cur = solid->current;

	if (!cur || solid->rgb565)
		return false;
	struct shm_buffer *buffer = shm_buffer_create(solid->globals->shm,
		&solid->buffers, cur->width, cur->height, solid->colour, false);
	if (!buffer)
		return false;
	uint32_t *px = buffer->data;
	for (int row = y; row < y + h && row < buffer->height; row++) {
		for (int col = x; col < x + w && col < buffer->width; col++) {
			if (row >= 0 && col >= 0)
				px[(size_t)row * buffer->width + col] = patch;
		}
	}
	shm_buffer_retire(cur);
	solid->current = buffer;
	shm_buffer_attach(buffer, solid->surface);
	if (solid->globals->compositor_version >= 4)
		wl_surface_damage_buffer(solid->surface, x, y, w, h);
	else
		wl_surface_damage(solid->surface, x, y, w, h);
	wl_surface_commit(solid->surface);
	return true;
}

void solid_surface_finish(struct solid_surface *solid)
{
	if (solid->frame)
		wl_callback_destroy(solid->frame);
	if (solid->surface)
		wl_surface_destroy(solid->surface);
	shm_buffer_destroy_all(&solid->buffers);
	solid->frame = NULL;
	solid->surface = NULL;
	solid->current = NULL;
}
