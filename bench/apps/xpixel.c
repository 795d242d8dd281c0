/* SPDX-License-Identifier: MIT */
/*
 * xpixel — prints the colour of one pixel of an X server's screen, as
 * RRGGBB, the way `grim -g "X,Y 1x1" -t ppm -` reads one from a Wayland
 * compositor. bench/run-startup runs it once per probe on the Xvfb stack.
 *
 * Usage: xpixel X Y   (DISPLAY from the environment)
 * Exit status: 0 with the colour on stdout; 1 if the server cannot be
 * reached or the read fails (the caller retries at its next probe).
 *
 * Build: cc -O2 -o xpixel xpixel.c -lxcb
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

int main(int argc, char *argv[]) {
	if (argc != 3) {
		fprintf(stderr, "usage: xpixel X Y\n");
		return 2;
	}
	int16_t x = (int16_t)atoi(argv[1]), y = (int16_t)atoi(argv[2]);
	xcb_connection_t *c = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(c)) {
		return 1;
	}
	xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
	xcb_get_image_reply_t *img = xcb_get_image_reply(c,
		xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, screen->root, x, y, 1, 1, ~0u),
		NULL);
	if (!img || xcb_get_image_data_length(img) < 4 || img->depth != 24) {
		free(img);
		xcb_disconnect(c);
		return 1;
	}
	/* Depth 24 in a 32-bit little-endian pixel: B, G, R, X. */
	const uint8_t *p = xcb_get_image_data(img);
	printf("%02x%02x%02x\n", p[2], p[1], p[0]);
	free(img);
	xcb_disconnect(c);
	return 0;
}
