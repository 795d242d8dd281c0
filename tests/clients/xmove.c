/* SPDX-License-Identifier: MIT */
/*
 * oriel-test-xmove: an X client that moves a window of its own, as a drag
 * icon or an app dragging its own window does, and repaints another window
 * in the same breath, so that a viewer can tell whether the two were shown
 * together.
 *
 * Two override-redirect windows: MOVER (MOVER_W x MOVER_H, colour 0x2060a0)
 * at --origin X,Y, and a 64x64 MARKER at 0,0. Once both are mapped it
 * prints "ready" and waits for SIGUSR1; then, for step n = 1..--steps, it
 * moves MOVER to X + 4n and fills MARKER with red n, green 255 - n, blue
 * 0x40 (one batch of requests, then a round trip), every --interval-ms.
 * Prints "step N" after each and "done" at the end.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xcb/xcb.h>

#define MOVER_W 160
#define MOVER_H 120
#define MARKER 64

static xcb_window_t make_window(xcb_connection_t *c, xcb_screen_t *screen, int x, int y,
		int w, int h, uint32_t colour) {
	xcb_window_t win = xcb_generate_id(c);
	uint32_t values[] = {colour, 1};
	xcb_create_window(c, XCB_COPY_FROM_PARENT, win, screen->root, (int16_t)x, (int16_t)y,
		(uint16_t)w, (uint16_t)h, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
		XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
	xcb_map_window(c, win);
	return win;
}

static void round_trip(xcb_connection_t *c) {
	free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
}

int main(int argc, char **argv) {
	int steps = 60, interval_ms = 20, x0 = 40, y0 = 200;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--steps")) {
			steps = atoi(argv[i + 1]);
		} else if (!strcmp(argv[i], "--interval-ms")) {
			interval_ms = atoi(argv[i + 1]);
		} else if (!strcmp(argv[i], "--origin") &&
				sscanf(argv[i + 1], "%d,%d", &x0, &y0) == 2) {
		} else {
			fprintf(stderr, "usage: oriel-test-xmove [--steps N] [--interval-ms MS] "
				"[--origin X,Y]\n");
			return 2;
		}
	}
	if (steps < 1 || steps > 255 || interval_ms < 1) {
		fprintf(stderr, "oriel-test-xmove: steps 1-255, interval above 0\n");
		return 2;
	}
	/* SIGUSR1 is waited for, not handled. */
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);

	xcb_connection_t *c = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(c)) {
		fprintf(stderr, "oriel-test-xmove: cannot connect to the X server\n");
		return 1;
	}
	xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
	xcb_window_t mover = make_window(c, screen, x0, y0, MOVER_W, MOVER_H, 0x2060a0);
	xcb_window_t marker = make_window(c, screen, 0, 0, MARKER, MARKER, 0x000000);
	xcb_gcontext_t gc = xcb_generate_id(c);
	xcb_create_gc(c, gc, marker, 0, NULL);
	round_trip(c);
	printf("ready\n");
	fflush(stdout);

	int sig;
	sigwait(&usr1, &sig);
	for (int n = 1; n <= steps; n++) {
		uint32_t pos[] = {(uint32_t)(x0 + 4 * n), (uint32_t)y0};
		xcb_configure_window(c, mover, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y, pos);
		uint32_t colour = (uint32_t)n << 16 | (uint32_t)(255 - n) << 8 | 0x40;
		xcb_change_gc(c, gc, XCB_GC_FOREGROUND, &colour);
		xcb_rectangle_t all = {0, 0, MARKER, MARKER};
		xcb_poly_fill_rectangle(c, marker, gc, 1, &all);
		round_trip(c);
		if (xcb_connection_has_error(c)) {
			fprintf(stderr, "oriel-test-xmove: X connection lost\n");
			return 1;
		}
		printf("step %d\n", n);
		fflush(stdout);
		struct timespec pause = {interval_ms / 1000, (long)(interval_ms % 1000) * 1000000};
		nanosleep(&pause, NULL);
	}
	printf("done\n");
	fflush(stdout);
	sigwait(&usr1, &sig); /* stays until told, so its windows stay too */
	xcb_disconnect(c);
	return 0;
}
