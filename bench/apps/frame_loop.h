/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_BENCH_APPS_FRAME_LOOP_H
#define ORIEL_BENCH_APPS_FRAME_LOOP_H

/*
 * The frame loop the bench's X apps share: the --log file of frame times
 * a viewer reads while they run, the signals that stop (SIGTERM, SIGINT)
 * and pause or resume (SIGUSR1) them, the pace of their frames, and the
 * bits of X and of their options that each needs. A header alone, so that
 * each app stays one compile line.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xcb/xcb.h>

static volatile sig_atomic_t quit_flag, pause_toggles;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* "WxH", both above 0: 0, else -1. */
static int frame_parse_size(const char *arg, int *w, int *h)
{
	return sscanf(arg, "%dx%d", w, h) == 2 && *w > 0 && *h > 0 ? 0 : -1;
}

static xcb_atom_t frame_intern(xcb_connection_t *c, const char *name)
{
	xcb_intern_atom_reply_t *r =
		xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, strlen(name), name), NULL);
	xcb_atom_t a = r ? r->atom : XCB_NONE;
	free(r);
	return a;
}

/* Asks the window manager to show win fullscreen once mapped (EWMH). */
static void frame_ask_fullscreen(xcb_connection_t *c, xcb_window_t win)
{
	xcb_atom_t state = frame_intern(c, "_NET_WM_STATE");
	xcb_atom_t fs = frame_intern(c, "_NET_WM_STATE_FULLSCREEN");
	xcb_change_property(c, XCB_PROP_MODE_REPLACE, win, state, XCB_ATOM_ATOM, 32, 1, &fs);
}

/* Whether c still works; says so on stderr, as app, when not. */
static int frame_x_alive(xcb_connection_t *c, const char *app)
{
	if (!xcb_connection_has_error(c))
		return 1;
	fprintf(stderr, "%s: X connection lost\n", app);
	return 0;
}

static void on_term(int sig) { (void)sig; quit_flag = 1; }
static void on_usr1(int sig) { (void)sig; pause_toggles++; }

/*
 * Maps path (created, frames 8-byte entries) shared, into *log; NULL when
 * there is no path. -1 after saying why on stderr.
 */
static int frame_log_open(const char *path, unsigned frames, uint64_t **log)
{
	*log = NULL;
	if (!path)
		return 0;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)frames * 8) < 0) {
		perror(path);
		return -1;
	}
	*log = mmap(NULL, (size_t)frames * 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (*log == MAP_FAILED) {
		perror("mmap");
		return -1;
	}
	return 0;
}

static void frame_signals_install(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
}

/*
 * The SIGUSR1s since the last call: an odd number of them pauses or
 * resumes (app says so on stderr, at frame n); the clock starts again
 * from now either way.
 */
static void frame_take_pause_toggles(const char *app, int *paused,
				     sig_atomic_t *seen_toggles, uint32_t n, uint64_t *next)
{
	if (pause_toggles == *seen_toggles)
		return;
	if ((pause_toggles - *seen_toggles) & 1) {
		*paused = !*paused;
		fprintf(stderr, "%s: %s at frame %u\n", app, *paused ? "paused" : "resumed", n);
	}
	*seen_toggles = pause_toggles;
	*next = now_ns();
}

/* When the frame after the one just drawn is due. */
static void frame_schedule_next(uint64_t *next, uint64_t period)
{
	*next += period;
	if (now_ns() > *next + period) /* fell behind: don't burst */
		*next = now_ns() + period;
}

/*
 * Waits, at time t, for X events on fd until the next frame is due (paused:
 * until events). False when poll failed.
 */
static int frame_wait(int fd, int paused, uint64_t next, uint64_t t)
{
	int timeout = -1;
	if (!paused)
		timeout = (int)((next - t) / 1000000ull);
	if (!paused && timeout < 2) {
		/* sleep precisely for the last few ms */
		struct timespec ts = {.tv_sec = next / 1000000000ull,
				      .tv_nsec = next % 1000000000ull};
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		return 1;
	}
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	return poll(&pfd, 1, timeout > 1 ? timeout - 1 : timeout) >= 0 || errno == EINTR;
}

#endif
