/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_PNG_WRITER_H
#define ORIEL_CAPTURE_PNG_WRITER_H

/* PNG encoding of 32-bit pixels (libpng), and writing it to a peer's fd. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Byte order of one 4-byte pixel in memory. */
enum png_pixel_order {
	PNG_PIXELS_RGBA, /* DRM_FORMAT_ABGR8888/XBGR8888 on little endian */
	PNG_PIXELS_BGRA, /* DRM_FORMAT_ARGB8888/XRGB8888 on little endian */
};

struct png_pixels {
	const uint8_t *data;
	uint32_t width, height, stride; /* stride in bytes */
	enum png_pixel_order order;
	bool alpha; /* keep the 4th byte as alpha (RGBA PNG), else write RGB */
};

/* Encodes pixels into a malloc'd PNG; 0 or a negative errno. */
int png_encode(const struct png_pixels *pixels, uint8_t **png, size_t *png_size);

/*
 * Encodes pixels and writes the PNG to fd, a file, pipe or socket from a
 * peer. fd stays open and owned by the caller. A pipe or socket that does
 * not drain within a few seconds gives -ETIMEDOUT, a closed one -EPIPE:
 * a stuck or gone reader never blocks or kills the compositor.
 */
int png_write_fd(const struct png_pixels *pixels, int fd);

#endif
