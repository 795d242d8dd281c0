/* SPDX-License-Identifier: MIT */
/* See png_pixel.h. */
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include "portal/png_pixel.h"

/* A pick reads one pixel; refuse to decode anything big. */
#define PNG_PIXEL_MAX_PIXELS (64u * 64u)

bool portal_png_first_pixel(const void *data, size_t size, uint8_t rgb[3]) {
	png_image image;
	memset(&image, 0, sizeof(image));
	image.version = PNG_IMAGE_VERSION;
	if (!data || size == 0 || !png_image_begin_read_from_memory(&image, data, size)) {
		return false;
	}
	if (image.width == 0 || image.height == 0 ||
			(uint64_t)image.width * image.height > PNG_PIXEL_MAX_PIXELS) {
		png_image_free(&image);
		return false;
	}
	image.format = PNG_FORMAT_RGB;
	png_bytep pixels = malloc(PNG_IMAGE_SIZE(image));
	if (!pixels) {
		png_image_free(&image);
		return false;
	}
	bool ok = png_image_finish_read(&image, NULL, pixels, 0, NULL) != 0;
	if (ok) {
		memcpy(rgb, pixels, 3);
	}
	free(pixels);
	png_image_free(&image);
	return ok;
}
