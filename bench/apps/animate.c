/* SPDX-License-Identifier: MIT */
/*
 * animate — an X11 benchmark app that repaints its whole window at a fixed
 * frame rate through MIT-SHM and writes a frame counter into its pixels.
 *
 * Counter layout (top-left corner, origin 0,0 of the window):
 *   row 0: BITS blocks of BLOCKxBLOCK px, bit (BITS-1-i) of the frame number,
 *          white = 1, black = 0 (MSB first, left to right);
 *   row 1: the same bits inverted, so a viewer can reject torn or
 *          misdecoded frames.
 * Blocks are 32 px and aligned to the JPEG 8x8 grid, so the code survives
 * Tight JPEG at low quality. The rest of the window is a moving pattern, so
 * every pixel changes every frame.
 *
 * Timestamps: with --log FILE, the CLOCK_MONOTONIC time (ns) at which frame n
 * was submitted (just before xcb_shm_put_image) is stored as a native uint64
 * at offset n*8 of FILE (mmap'd, LOG_FRAMES entries). A viewer on the same
 * machine reads it after the run to compute latency.
 *
 * --cursor WxH: small damage instead. The window is drawn whole once (the
 * pattern, standing still, and no frame counter); then each frame repaints
 * only a WxH rectangle at (CURSOR_X, CURSOR_Y), like a blinking text cursor,
 * and sends only that rectangle (ShmPutImage of WxH). The rectangle sits on
 * a black bed CURSOR_BED px wide (the pattern has no black), and every pixel
 * of it holds the frame number n: 0x800000 | (n & 1) << 22 | n (n < 2^20),
 * so it alternates between two reds (the blink) and a consumer that finds
 * the rectangle reads the frame number from any pixel.
 *
 * --photo: a photo-like picture instead of the pattern (smooth shapes from
 * a few octaves of value noise, a sky, soft edges and a little sensor
 * grain), made here, not read from a file. It pans left and right by
 * PHOTO_STEP px a frame over PATTERN_PERIOD px, so every pixel still
 * changes every frame, as a camera pan does; the counter is drawn as usual.
 *
 * --noise: fresh grain on every pixel every frame (+-NOISE per channel), as
 * a film's grain or a dim camera's sensor noise: nothing a motion search
 * predicts, so an encoder needs many bits a frame (a heavy load for a
 * link, where the pattern alone costs almost nothing). The counter's rows
 * stay clean.
 *
 * SIGUSR1 toggles pause (the window keeps its last frame: a static app).
 * SIGTERM/SIGINT exit.
 *
 * Build: cc -O2 -o animate animate.c -lxcb -lxcb-shm
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <time.h>
#include <unistd.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>
#include "frame_loop.h"

#define BLOCK 32
#define BITS 20
#define LOG_FRAMES (1u << BITS)
#define PATTERN_PERIOD 256
#define CURSOR_X 24
#define CURSOR_Y 24
#define CURSOR_BED 8
#define PHOTO_STEP 2

static int photo; /* --photo */
static int noise; /* --noise */
#define NOISE 16
/* The noise starts below the counter's rows and a macroblock more, so a
 * coarse encoding keeps the counter readable. */
#define NOISE_TOP (2 * BLOCK + 16)

static uint32_t hash2(int x, int y)
{
	uint32_t h = (uint32_t)x * 374761393u + (uint32_t)y * 668265263u;
	h = (h ^ (h >> 13)) * 1274126177u;
	return h ^ (h >> 16);
}

/* Value noise in [0, 1): the lattice's hashed values, smoothly blended. */
static double value_noise(double x, double y)
{
	int xi = (int)x, yi = (int)y;
	double fx = x - xi, fy = y - yi;
	fx = fx * fx * (3 - 2 * fx);
	fy = fy * fy * (3 - 2 * fy);
	double a = (hash2(xi, yi) & 0xffff) / 65536.0, b = (hash2(xi + 1, yi) & 0xffff) / 65536.0;
	double c = (hash2(xi, yi + 1) & 0xffff) / 65536.0;
	double d = (hash2(xi + 1, yi + 1) & 0xffff) / 65536.0;
	return a + (b - a) * fx + (c - a) * fy + (a - b - c + d) * fx * fy;
}

static double fractal(double x, double y)
{
	double v = 0, amp = 0.5, f = 1.0 / 256;
	for (int i = 0; i < 6; i++, amp /= 2, f *= 2)
		v += amp * value_noise(x * f + i * 17.1, y * f + i * 31.7);
	return v;
}

static uint8_t clamp8(double v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

/* A landscape: sky above a ridge line, textured ground below it. */
static uint32_t photo_pixel(int x, int y, int h)
{
	double ridge = h * (0.35 + 0.25 * fractal(x * 0.7, 1000));
	double grain = (double)(hash2(x * 3 + 7, y * 5 + 11) % 13) - 6;
	double r, g, b;
	if (y < ridge) {
		double t = (double)y / (ridge > 1 ? ridge : 1);
		double cloud = fractal(x * 1.5, y * 3);
		cloud = cloud > 0.55 ? (cloud - 0.55) * 4 : 0;
		r = 90 + 80 * t + 150 * cloud;
		g = 140 + 60 * t + 110 * cloud;
		b = 220 + 20 * t + 30 * cloud;
	} else {
		double n = fractal(x * 4, y * 4), m = fractal(x + 500, y + 500);
		double shade = 0.6 + 0.6 * n;
		r = (70 + 90 * m) * shade;
		g = (90 + 70 * (1 - m)) * shade;
		b = (40 + 40 * n) * shade;
		if (y - ridge < 3) /* the ridge's sharp edge */
			r *= 0.5, g *= 0.5, b *= 0.5;
	}
	return (uint32_t)clamp8(r + grain) << 16 | (uint32_t)clamp8(g + grain) << 8 |
	       clamp8(b + grain);
}


static uint32_t cursor_value(uint32_t n)
{
	return 0x800000u | (n & 1u) << 22 | (n & (LOG_FRAMES - 1));
}


struct shmbuf {
	int w, h;
	int shmid;
	uint32_t *pixels;
	xcb_shm_seg_t seg;
	uint32_t *pattern; /* (w + PATTERN_PERIOD) x h */
};

static void shmbuf_free(xcb_connection_t *c, struct shmbuf *b)
{
	if (!b->pixels)
		return;
	xcb_shm_detach(c, b->seg);
	shmdt(b->pixels);
	free(b->pattern);
	b->pixels = NULL;
	b->pattern = NULL;
}

static int shmbuf_alloc(xcb_connection_t *c, struct shmbuf *b, int w, int h)
{
	size_t size = (size_t)w * h * 4;
	b->shmid = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
	if (b->shmid < 0) {
		perror("shmget");
		return -1;
	}
	b->pixels = shmat(b->shmid, NULL, 0);
	if (b->pixels == (void *)-1) {
		perror("shmat");
		b->pixels = NULL;
		return -1;
	}
	b->seg = xcb_generate_id(c);
	xcb_void_cookie_t ck = xcb_shm_attach_checked(c, b->seg, b->shmid, 0);
	xcb_generic_error_t *err = xcb_request_check(c, ck);
	/* mark for removal once both sides have attached */
	shmctl(b->shmid, IPC_RMID, NULL);
	if (err) {
		fprintf(stderr, "animate: ShmAttach failed (error %d)\n", err->error_code);
		free(err);
		return -1;
	}
	b->w = w;
	b->h = h;
	/* A colourful pattern, periodic in x, scrolled by the frame number. */
	int pw = w + PATTERN_PERIOD;
	b->pattern = malloc((size_t)pw * h * 4);
	if (!b->pattern)
		return -1;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < pw; x++) {
			if (photo) {
				b->pattern[(size_t)y * pw + x] = photo_pixel(x, y, h);
				continue;
			}
			uint32_t r = (uint32_t)(x % PATTERN_PERIOD);
			uint32_t g = (uint32_t)((y * 255) / (h > 1 ? h - 1 : 1));
			uint32_t bl = (uint32_t)(((x / 16) ^ (y / 16)) & 1 ? 200 : 60);
			b->pattern[(size_t)y * pw + x] = (r << 16) | (g << 8) | bl;
		}
	}
	return 0;
}

/* --noise: xorshift32, seeded by the frame number, a channel a byte. */
static void add_noise(struct shmbuf *b, uint32_t n)
{
	uint32_t r = 0x9e3779b9u ^ (n * 2654435761u);
	size_t count = (size_t)b->w * b->h;
	for (size_t i = (size_t)b->w * NOISE_TOP; i < count; i++) {
		r ^= r << 13;
		r ^= r >> 17;
		r ^= r << 5;
		uint32_t px = b->pixels[i], out = 0;
		for (int shift = 0; shift < 24; shift += 8) {
			int v = (int)((px >> shift) & 0xff) + (int)((r >> shift) % (2 * NOISE + 1)) - NOISE;
			out |= (uint32_t)(v < 0 ? 0 : v > 255 ? 255 : v) << shift;
		}
		b->pixels[i] = out;
	}
}

static void draw_frame(struct shmbuf *b, uint32_t n)
{
	int pw = b->w + PATTERN_PERIOD;
	int shift = (int)((n * 4) % PATTERN_PERIOD);
	if (photo) { /* back and forth, with no jump */
		int s = (int)((n * PHOTO_STEP) % (2 * PATTERN_PERIOD));
		shift = s < PATTERN_PERIOD ? s : 2 * PATTERN_PERIOD - s;
		if (shift >= PATTERN_PERIOD)
			shift = PATTERN_PERIOD - 1;
	}
	for (int y = 0; y < b->h; y++)
		memcpy(b->pixels + (size_t)y * b->w,
		       b->pattern + (size_t)y * pw + shift, (size_t)b->w * 4);
	if (noise)
		add_noise(b, n);
	for (int i = 0; i < BITS; i++) {
		int bit = (n >> (BITS - 1 - i)) & 1;
		for (int row = 0; row < 2; row++) {
			uint32_t col = (bit ^ row) ? 0xffffff : 0x000000;
			for (int y = row * BLOCK; y < (row + 1) * BLOCK && y < b->h; y++)
				for (int x = i * BLOCK; x < (i + 1) * BLOCK && x < b->w; x++)
					b->pixels[(size_t)y * b->w + x] = col;
		}
	}
}

/* --cursor: the still background, with the black bed, drawn once. */
static void draw_still(struct shmbuf *b, int cw, int ch)
{
	int pw = b->w + PATTERN_PERIOD;
	for (int y = 0; y < b->h; y++)
		memcpy(b->pixels + (size_t)y * b->w, b->pattern + (size_t)y * pw, (size_t)b->w * 4);
	for (int y = CURSOR_Y - CURSOR_BED; y < CURSOR_Y + ch + CURSOR_BED && y < b->h; y++)
		for (int x = CURSOR_X - CURSOR_BED; x < CURSOR_X + cw + CURSOR_BED && x < b->w; x++)
			b->pixels[(size_t)y * b->w + x] = 0;
}

static void draw_cursor(struct shmbuf *b, uint32_t n, int cw, int ch)
{
	for (int y = CURSOR_Y; y < CURSOR_Y + ch && y < b->h; y++)
		for (int x = CURSOR_X; x < CURSOR_X + cw && x < b->w; x++)
			b->pixels[(size_t)y * b->w + x] = cursor_value(n);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: animate [--size WxH] [--fps N] [--log FILE] [--no-fullscreen]\n"
		"               [--frames N] [--paused] [--cursor WxH] [--photo] [--noise]\n");
}

int main(int argc, char **argv)
{
	int w = 1920, h = 1080, fps = 60, fullscreen = 1, start_paused = 0;
	int cw = 0, ch = 0; /* --cursor */
	long max_frames = -1;
	const char *log_path = NULL;
	static const struct option opts[] = {
		{"size", required_argument, 0, 's'},
		{"fps", required_argument, 0, 'f'},
		{"log", required_argument, 0, 'l'},
		{"no-fullscreen", no_argument, 0, 'n'},
		{"frames", required_argument, 0, 'N'},
		{"paused", no_argument, 0, 'p'},
		{"cursor", required_argument, 0, 'c'},
		{"photo", no_argument, 0, 'P'},
		{"noise", no_argument, 0, 'g'},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	int o;
	while ((o = getopt_long(argc, argv, "s:f:l:nN:pc:Pgh", opts, NULL)) != -1) {
		switch (o) {
		case 's':
			if (frame_parse_size(optarg, &w, &h) < 0) {
				usage();
				return 2;
			}
			break;
		case 'f': fps = atoi(optarg); break;
		case 'l': log_path = optarg; break;
		case 'n': fullscreen = 0; break;
		case 'N': max_frames = atol(optarg); break;
		case 'p': start_paused = 1; break;
		case 'P': photo = 1; break;
		case 'g': noise = 1; break;
		case 'c':
			if (frame_parse_size(optarg, &cw, &ch) < 0) {
				usage();
				return 2;
			}
			break;
		default: usage(); return o == 'h' ? 0 : 2;
		}
	}
	if (fps <= 0)
		fps = 60;

	uint64_t *log;
	if (frame_log_open(log_path, LOG_FRAMES, &log) < 0)
		return 1;
	frame_signals_install();

	xcb_connection_t *c = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(c)) {
		fprintf(stderr, "animate: cannot connect to X display\n");
		return 1;
	}
	const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &xcb_shm_id);
	if (!ext || !ext->present) {
		fprintf(stderr, "animate: no MIT-SHM\n");
		return 1;
	}
	xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
	if (screen->root_depth != 24) {
		fprintf(stderr, "animate: root depth %d, want 24\n", screen->root_depth);
		return 1;
	}

	xcb_window_t win = xcb_generate_id(c);
	uint32_t mask = XCB_CW_BACK_PIXMAP | XCB_CW_EVENT_MASK;
	uint32_t values[] = {XCB_BACK_PIXMAP_NONE,
			     XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_EXPOSURE};
	xcb_create_window(c, XCB_COPY_FROM_PARENT, win, screen->root, 0, 0, w, h, 0,
			  XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, mask, values);
	const char *title = "oriel-bench-animate";
	xcb_change_property(c, XCB_PROP_MODE_REPLACE, win, XCB_ATOM_WM_NAME, XCB_ATOM_STRING,
			    8, strlen(title), title);
	if (fullscreen) {
		frame_ask_fullscreen(c, win);
	}
	xcb_gcontext_t gc = xcb_generate_id(c);
	xcb_create_gc(c, gc, win, 0, NULL);
	xcb_map_window(c, win);
	xcb_flush(c);

	struct shmbuf buf = {0};
	if (shmbuf_alloc(c, &buf, w, h) < 0)
		return 1;
	fprintf(stderr, "animate: window %dx%d at %d fps\n", w, h, fps);

	int paused = start_paused;
	sig_atomic_t seen_toggles = 0;
	uint32_t n = 0;
	uint64_t period = 1000000000ull / (uint64_t)fps;
	uint64_t next = now_ns();
	int fd = xcb_get_file_descriptor(c);
	int need_redraw = 1; /* for the paused case: draw once */

	while (!quit_flag) {
		xcb_generic_event_t *ev;
		while ((ev = xcb_poll_for_event(c))) {
			uint8_t type = ev->response_type & 0x7f;
			if (type == XCB_CONFIGURE_NOTIFY) {
				xcb_configure_notify_event_t *ce = (void *)ev;
				if (ce->window == win && (ce->width != buf.w || ce->height != buf.h)) {
					shmbuf_free(c, &buf);
					if (shmbuf_alloc(c, &buf, ce->width, ce->height) < 0)
						return 1;
					fprintf(stderr, "animate: resized to %dx%d\n", buf.w, buf.h);
					need_redraw = 1;
				}
			} else if (type == XCB_EXPOSE) {
				need_redraw = 1;
			}
			free(ev);
		}
		if (!frame_x_alive(c, "animate"))
			return 1;
		frame_take_pause_toggles("animate", &paused, &seen_toggles, n, &next);

		uint64_t t = now_ns();
		if ((!paused && t >= next) || (paused && need_redraw)) {
			if (!paused) {
				n++;
				if (n >= LOG_FRAMES)
					n = 1;
			}
			/* --cursor: the whole window when it must be redrawn, else
			 * only the rectangle. */
			int x0 = 0, y0 = 0, pw = buf.w, ph = buf.h;
			if (cw) {
				if (need_redraw)
					draw_still(&buf, cw, ch);
				draw_cursor(&buf, n, cw, ch);
				if (!need_redraw && CURSOR_X + cw <= buf.w && CURSOR_Y + ch <= buf.h) {
					x0 = CURSOR_X;
					y0 = CURSOR_Y;
					pw = cw;
					ph = ch;
				}
			} else {
				draw_frame(&buf, n);
			}
			uint64_t sent = now_ns();
			if (log)
				log[n] = sent;
			xcb_shm_put_image(c, win, gc, buf.w, buf.h, x0, y0, pw, ph, x0, y0,
					  24, XCB_IMAGE_FORMAT_Z_PIXMAP, 0, buf.seg, 0);
			/* Round trip: the server has copied the segment before we
			 * draw into it again. */
			free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
			need_redraw = 0;
			if (!paused)
				frame_schedule_next(&next, period);
			if (max_frames > 0 && n >= (uint64_t)max_frames)
				break;
			continue;
		}
		if (!frame_wait(fd, paused, next, t))
			break;
	}
	fprintf(stderr, "animate: exiting after frame %u\n", n);
	shmbuf_free(c, &buf);
	xcb_disconnect(c);
	return 0;
}
