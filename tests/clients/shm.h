/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_TEST_SHM_H
#define ORIEL_TEST_SHM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-util.h>

struct wl_shm;
struct wl_surface;

/* A memfd-backed XRGB8888 (or RGB565) wl_buffer filled with one colour. */
struct shm_buffer {
	struct wl_buffer *wl_buffer;
	void *data;
	size_t size;
	int width, height;
	bool busy;    /* attached and not yet released by the compositor */
	bool retired; /* destroy as soon as the compositor releases it */
	struct wl_list link; /* owner's list, so nothing leaks at exit */
};

/*
 * Returns NULL (with a message on stderr) on a bad size or failed memfd.
 * The buffer is added to `owner`, which shm_buffer_destroy_all empties.
 */
struct shm_buffer *shm_buffer_create(struct wl_shm *shm, struct wl_list *owner,
	int width, int height, uint32_t xrgb, bool rgb565);
/* Attaches at (0, 0); the buffer stays alive until released. */
void shm_buffer_attach(struct shm_buffer *buffer, struct wl_surface *surface);
/* Drops the caller's reference: freed now if idle, else on release. */
void shm_buffer_retire(struct shm_buffer *buffer);
/* At teardown: frees every buffer in `owner`, released or not. */
void shm_buffer_destroy_all(struct wl_list *owner);

#endif
