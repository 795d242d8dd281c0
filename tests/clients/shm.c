/* SPDX-License-Identifier: MIT */
#include "shm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

/* Sizes come from the compositor's configure events: keep them sane. */
#define SHM_MAX_DIM 16384

static void buffer_free(struct shm_buffer *buffer)
{
	wl_list_remove(&buffer->link);
	wl_buffer_destroy(buffer->wl_buffer);
	munmap(buffer->data, buffer->size);
	free(buffer);
}

static void handle_release(void *data, struct wl_buffer *wl_buffer)
{
	struct shm_buffer *buffer = data;

	buffer->busy = false;
	if (buffer->retired)
		buffer_free(buffer);
}

static const struct wl_buffer_listener buffer_listener = {
	.release = handle_release,
};

static int create_memfd(size_t size)
{
	int fd = memfd_create("oriel-test-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return -1;
	}
	/* The compositor maps it too; a shrink would SIGBUS it. */
	fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
	return fd;
}

struct shm_buffer *shm_buffer_create(struct wl_shm *shm, struct wl_list *owner,
	int width, int height, uint32_t xrgb, bool rgb565)
{
	if (width <= 0 || height <= 0 || width > SHM_MAX_DIM ||
			height > SHM_MAX_DIM) {
		fprintf(stderr, "shm: refusing buffer size %dx%d\n", width, height);
		return NULL;
	}
	int stride = width * (rgb565 ? 2 : 4);
	size_t size = (size_t)stride * (size_t)height;

	int fd = create_memfd(size);
	if (fd < 0) {
		fprintf(stderr, "shm: memfd: %s\n", strerror(errno));
		return NULL;
	}
	void *data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (data == MAP_FAILED) {
		fprintf(stderr, "shm: mmap: %s\n", strerror(errno));
		close(fd);
		return NULL;
	}

	if (rgb565) {
		uint16_t pixel = (uint16_t)(((xrgb >> 8) & 0xf800) | ((xrgb >> 5) & 0x07e0) |
			((xrgb >> 3) & 0x001f));
		uint16_t *px = data;
		for (size_t i = 0; i < size / 2; i++)
			px[i] = pixel;
	} else {
		/* XRGB ignores alpha, but readers that treat it as ARGB see opaque. */
		uint32_t pixel = 0xff000000u | (xrgb & 0x00ffffffu);
		uint32_t *px = data;
		for (size_t i = 0; i < size / 4; i++)
			px[i] = pixel;
	}

	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
	struct wl_buffer *wl_buffer = wl_shm_pool_create_buffer(pool, 0,
		width, height, stride, rgb565 ? WL_SHM_FORMAT_RGB565 : WL_SHM_FORMAT_XRGB8888);
	/* The buffer keeps the pool's memory; neither end needs the fd now. */
	wl_shm_pool_destroy(pool);
	close(fd);

	struct shm_buffer *buffer = calloc(1, sizeof(*buffer));
	if (!buffer) {
		fprintf(stderr, "shm: out of memory\n");
		abort();
	}
	buffer->wl_buffer = wl_buffer;
	buffer->data = data;
	buffer->size = size;
	buffer->width = width;
	buffer->height = height;
	wl_list_insert(owner, &buffer->link);
	wl_buffer_add_listener(wl_buffer, &buffer_listener, buffer);
	return buffer;
}

void shm_buffer_attach(struct shm_buffer *buffer, struct wl_surface *surface)
{
	wl_surface_attach(surface, buffer->wl_buffer, 0, 0);
	buffer->busy = true;
}

void shm_buffer_retire(struct shm_buffer *buffer)
{
	if (!buffer)
		return;
	if (buffer->busy)
		buffer->retired = true;
	else
		buffer_free(buffer);
}

void shm_buffer_destroy_all(struct wl_list *owner)
{
	struct shm_buffer *buffer, *tmp;
	wl_list_for_each_safe(buffer, tmp, owner, link)
		buffer_free(buffer);
}
