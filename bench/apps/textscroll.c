/* SPDX-License-Identifier: MIT */
/*
 * textscroll — X11 benchmark workloads made of text drawn with core X fonts,
 * with animate's frame counter (see animate.c) in their pixels:
 *
 *   default: a terminal. A window the size of the screen scrolls a text file
 *            --lines lines a frame at --fps, as xterm does when a file is
 *            cat'ed into it: CopyArea of the text up, ImageText8 of the new
 *            lines at the bottom. The counter sits in a band above the text.
 *   --drag:  a window drag. An 800x600 window full of text (drawn once)
 *            moves across the screen, --step px a frame, bouncing off the
 *            edges. Its position is set by the app itself (ConfigureWindow
 *            of an override-redirect window), so the workload is the same
 *            on a stack with no window manager. The counter is a 640x64
 *            window of its own at 0,0, above the path.
 *
 * --log FILE: as animate, the CLOCK_MONOTONIC time (ns) at which frame n's
 * requests were sent, at offset n*8. SIGUSR1 toggles pause, SIGTERM/SIGINT
 * exit.
 *
 * Build: cc -O2 -o textscroll textscroll.c -lxcb
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
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xcb/xcb.h>
#include "frame_loop.h"

#define BLOCK 32
#define BITS 20
#define LOG_FRAMES (1u << BITS)
#define BAND (2 * BLOCK)        /* the counter's rows */
#define DRAG_W 800
#define DRAG_H 600
#define MAX_COLUMNS 255


struct text {
	char **lines;
	size_t count, next;
};

/* The file's lines, tabs expanded, control bytes dropped. */
static int text_load(struct text *t, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	while (getline(&line, &cap, f) >= 0) {
		char out[MAX_COLUMNS + 1];
		size_t o = 0;
		for (char *p = line; *p && *p != '\n' && o < MAX_COLUMNS; p++) {
			if (*p == '\t') {
				do
					out[o++] = ' ';
				while (o % 8 && o < MAX_COLUMNS);
			} else if ((unsigned char)*p >= 0x20) {
				out[o++] = *p;
			}
		}
		out[o] = 0;
		if (t->count == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			t->lines = realloc(t->lines, alloc * sizeof(*t->lines));
			if (!t->lines)
				return -1;
		}
		t->lines[t->count++] = strdup(out);
	}
	free(line);
	fclose(f);
	if (!t->count) {
		fprintf(stderr, "textscroll: %s is empty\n", path);
		return -1;
	}
	return 0;
}

static const char *text_next(struct text *t)
{
	const char *s = t->lines[t->next];
	t->next = (t->next + 1) % t->count;
	return s;
}

static void draw_string(xcb_connection_t *c, xcb_drawable_t d, xcb_gcontext_t gc,
			int x, int y, const char *s, int columns)
{
	int len = (int)strlen(s);
	if (len > columns)
		len = columns;
	if (len > 0)
		xcb_image_text_8(c, (uint8_t)len, d, gc, (int16_t)x, (int16_t)y, s);
}

static void draw_counter(xcb_connection_t *c, xcb_drawable_t d, xcb_gcontext_t white,
			 xcb_gcontext_t black, uint32_t n)
{
	xcb_rectangle_t on[BITS * 2], off[BITS * 2];
	int non = 0, noff = 0;
	for (int i = 0; i < BITS; i++) {
		int bit = (n >> (BITS - 1 - i)) & 1;
		for (int row = 0; row < 2; row++) {
			xcb_rectangle_t r = {(int16_t)(i * BLOCK), (int16_t)(row * BLOCK), BLOCK, BLOCK};
			if (bit ^ row)
				on[non++] = r;
			else
				off[noff++] = r;
		}
	}
	xcb_poly_fill_rectangle(c, d, white, non, on);
	xcb_poly_fill_rectangle(c, d, black, noff, off);
}

static xcb_window_t make_window(xcb_connection_t *c, xcb_screen_t *screen, int x, int y,
				int w, int h, int override, const char *title)
{
	xcb_window_t win = xcb_generate_id(c);
	uint32_t mask = XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK;
	uint32_t values[] = {screen->black_pixel, (uint32_t)override,
			     XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_STRUCTURE_NOTIFY};
	xcb_create_window(c, XCB_COPY_FROM_PARENT, win, screen->root, (int16_t)x, (int16_t)y,
			  (uint16_t)w, (uint16_t)h, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
			  screen->root_visual, mask, values);
	xcb_change_property(c, XCB_PROP_MODE_REPLACE, win, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
			    strlen(title), title);
	return win;
}

static xcb_gcontext_t make_gc(xcb_connection_t *c, xcb_drawable_t d, uint32_t fg, uint32_t bg,
			      xcb_font_t font)
{
	xcb_gcontext_t gc = xcb_generate_id(c);
	uint32_t values[] = {fg, bg, font, 0};
	xcb_create_gc(c, gc, d,
		      XCB_GC_FOREGROUND | XCB_GC_BACKGROUND | XCB_GC_FONT | XCB_GC_GRAPHICS_EXPOSURES,
		      values);
	return gc;
}

static void usage(void)
{
	fprintf(stderr, "usage: textscroll --text FILE [--size WxH] [--fps N] [--log FILE]\n"
			"                  [--font NAME] [--lines N] [--drag] [--step PX]\n");
}

int main(int argc, char **argv)
{
	int w = 1920, h = 1080, fps = 60, lines_per_frame = 2, drag = 0, step = 8;
	const char *log_path = NULL, *text_path = NULL, *font_name = "10x20";
	static const struct option opts[] = {
		{"size", required_argument, 0, 's'}, {"fps", required_argument, 0, 'f'},
		{"log", required_argument, 0, 'l'},  {"text", required_argument, 0, 't'},
		{"font", required_argument, 0, 'F'}, {"lines", required_argument, 0, 'L'},
		{"drag", no_argument, 0, 'd'},       {"step", required_argument, 0, 'S'},
		{"help", no_argument, 0, 'h'},       {0, 0, 0, 0},
	};
	int o;
	while ((o = getopt_long(argc, argv, "s:f:l:t:F:L:dS:h", opts, NULL)) != -1) {
		switch (o) {
		case 's':
			if (frame_parse_size(optarg, &w, &h) < 0) {
				usage();
				return 2;
			}
			break;
		case 'f': fps = atoi(optarg); break;
		case 'l': log_path = optarg; break;
		case 't': text_path = optarg; break;
		case 'F': font_name = optarg; break;
		case 'L': lines_per_frame = atoi(optarg); break;
		case 'd': drag = 1; break;
		case 'S': step = atoi(optarg); break;
		default: usage(); return o == 'h' ? 0 : 2;
		}
	}
	if (!text_path) {
		usage();
		return 2;
	}
	if (fps <= 0)
		fps = 60;
	if (lines_per_frame <= 0)
		lines_per_frame = 1;
	struct text text = {0};
	if (text_load(&text, text_path) < 0)
		return 1;

	uint64_t *log;
	if (frame_log_open(log_path, LOG_FRAMES, &log) < 0)
		return 1;
	frame_signals_install();

	xcb_connection_t *c = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(c)) {
		fprintf(stderr, "textscroll: cannot connect to X display\n");
		return 1;
	}
	xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
	xcb_font_t font = xcb_generate_id(c);
	xcb_generic_error_t *err =
		xcb_request_check(c, xcb_open_font_checked(c, font, strlen(font_name), font_name));
	if (err) {
		free(err);
		fprintf(stderr, "textscroll: no font %s, using fixed\n", font_name);
		xcb_open_font(c, font, 5, "fixed");
	}
	xcb_query_font_reply_t *fi = xcb_query_font_reply(c, xcb_query_font(c, font), NULL);
	if (!fi) {
		fprintf(stderr, "textscroll: cannot query the font\n");
		return 1;
	}
	int ascent = fi->font_ascent, lh = fi->font_ascent + fi->font_descent;
	int cw = fi->max_bounds.character_width > 0 ? fi->max_bounds.character_width : 8;
	free(fi);

	xcb_window_t win, counter_win;
	int win_w, win_h, x = 0, y = BAND + 8, dx = step, dy = step / 4 > 0 ? step / 4 : 1;
	if (drag) {
		win_w = DRAG_W < w ? DRAG_W : w;
		win_h = DRAG_H < h - y ? DRAG_H : h - y;
		win = make_window(c, screen, x, y, win_w, win_h, 1, "oriel-bench-drag");
		counter_win = make_window(c, screen, 0, 0, BITS * BLOCK, BAND, 1,
					  "oriel-bench-drag-counter");
	} else {
		win_w = w;
		win_h = h;
		win = make_window(c, screen, 0, 0, w, h, 0, "oriel-bench-text");
		frame_ask_fullscreen(c, win);
		counter_win = win;
	}
	xcb_gcontext_t text_gc = make_gc(c, win, 0xd0d0d0, 0x101010, font);
	xcb_gcontext_t white = make_gc(c, win, 0xffffff, 0, font);
	xcb_gcontext_t black = make_gc(c, win, 0x000000, 0, font);
	xcb_gcontext_t bed = make_gc(c, win, 0x101010, 0, font);
	xcb_map_window(c, win);
	if (counter_win != win)
		xcb_map_window(c, counter_win);
	xcb_flush(c);
	int columns = win_w / cw;
	if (columns > MAX_COLUMNS)
		columns = MAX_COLUMNS;
	int top = drag ? 0 : BAND;             /* the text area */
	int rows = (win_h - top) / lh;
	int scroll = lines_per_frame * lh;
	fprintf(stderr, "textscroll: %s %dx%d, %d rows of %d columns, %d lines a frame at %d fps\n",
		drag ? "drag" : "text", win_w, win_h, rows, columns, lines_per_frame, fps);

	int paused = 0, need_redraw = 1;
	sig_atomic_t seen_toggles = 0;
	uint32_t n = 0;
	uint64_t period = 1000000000ull / (uint64_t)fps, next = now_ns();
	int fd = xcb_get_file_descriptor(c);
	while (!quit_flag) {
		xcb_generic_event_t *ev;
		while ((ev = xcb_poll_for_event(c))) {
			if ((ev->response_type & 0x7f) == XCB_EXPOSE)
				need_redraw = 1;
			free(ev);
		}
		if (!frame_x_alive(c, "textscroll"))
			return 1;
		frame_take_pause_toggles("textscroll", &paused, &seen_toggles, n, &next);
		uint64_t t = now_ns();
		if ((!paused && t >= next) || (paused && need_redraw)) {
			if (!paused && ++n >= LOG_FRAMES)
				n = 1;
			uint64_t sent = now_ns();
			if (log)
				log[n] = sent;
			if (need_redraw) {
				/* the whole text area, from where the text is now */
				xcb_rectangle_t all = {0, 0, (uint16_t)win_w, (uint16_t)win_h};
				xcb_poly_fill_rectangle(c, win, bed, 1, &all);
				for (int r = 0; r < rows; r++)
					draw_string(c, win, text_gc, 0, top + r * lh + ascent,
						    text.lines[(text.next + r) % text.count], columns);
				need_redraw = 0;
			}
			if (!paused && drag) {
				if (x + dx < 0 || x + dx + win_w > w)
					dx = -dx;
				if (y + dy < BAND + 8 || y + dy + win_h > h)
					dy = -dy;
				if (x + dx >= 0 && x + dx + win_w <= w)
					x += dx;
				if (y + dy >= BAND + 8 && y + dy + win_h <= h)
					y += dy;
				uint32_t pos[] = {(uint32_t)x, (uint32_t)y};
				xcb_configure_window(c, win, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y, pos);
			} else if (!paused) {
				int keep = rows * lh - scroll;
				if (keep > 0)
					xcb_copy_area(c, win, win, text_gc, 0, (int16_t)(top + scroll), 0,
						      (int16_t)top, (uint16_t)win_w, (uint16_t)keep);
				xcb_rectangle_t fresh = {0, (int16_t)(top + (keep > 0 ? keep : 0)),
							 (uint16_t)win_w, (uint16_t)(win_h - top - (keep > 0 ? keep : 0))};
				xcb_poly_fill_rectangle(c, win, bed, 1, &fresh);
				int first_new = keep > 0 ? rows - lines_per_frame : 0;
				for (int r = first_new; r < rows; r++)
					draw_string(c, win, text_gc, 0, top + r * lh + ascent,
						    text_next(&text), columns);
			}
			draw_counter(c, counter_win, white, black, n);
			/* Round trip: the frame is drawn before the next begins. */
			free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
			if (!paused)
				frame_schedule_next(&next, period);
			continue;
		}
		if (!frame_wait(fd, paused, next, t))
			break;
	}
	fprintf(stderr, "textscroll: exiting after frame %u\n", n);
	xcb_disconnect(c);
	return 0;
}
