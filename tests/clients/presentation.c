/* SPDX-License-Identifier: MIT */
/*
 * oriel-test-presentation: checks the compositor's presentation-time
 * feedback over many frames of one xdg toplevel.
 *
 *   --mode animated  new pixels every frame, paced by frame callbacks
 *   --mode idle      commits that change nothing, at about 60 Hz, then
 *                    one frame with new pixels
 *   --frames N       (300)
 *
 * Invariants: the clock is CLOCK_MONOTONIC; every feedback ends exactly
 * once, presented or discarded, in the order of the commits; presented
 * times lie between the commit and the event's arrival and never go
 * back; sequence numbers go up; refresh is the output mode's period; no
 * vsync, hardware clock or hardware completion is claimed by a headless
 * output. Prints "presented P discarded D" and exits 0, or says on stderr
 * what broke and exits 1.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

#include "client.h"
#include "presentation-time-client-protocol.h"
#include "shm.h"
#include "xdg-shell-client-protocol.h"

#define SIZE 128
#define WAIT_MS 10000

enum fb_state { FB_PENDING, FB_PRESENTED, FB_DISCARDED };

struct pres_client;

struct frame {
	struct pres_client *client;
	struct wp_presentation_feedback *feedback;
	enum fb_state state;
	int64_t committed_ns, received_ns, presented_ns;
	uint64_t seq;
	uint32_t refresh_ns, flags;
	bool synced_output;
};

struct pres_client {
	struct client_globals globals;
	struct wl_registry *registry;
	struct wp_presentation *presentation;
	struct wl_output *output;
	int32_t output_refresh_mhz;
	uint32_t clock_id;
	bool have_clock;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	bool configured;
	struct wl_list buffers;
	struct frame *frames;
	int n_frames, n_committed, n_resolved;
	bool frame_done;
	int errors;
};

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#define FAIL(c, ...) do { \
	if ((c)->errors++ < 10) { \
		fprintf(stderr, "oriel-test-presentation: " __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

static void resolve(struct pres_client *c, struct frame *f, enum fb_state state)
{
	int index = (int)(f - c->frames);
	if (f->state != FB_PENDING) {
		FAIL(c, "frame %d: a second end (%s after %s)", index,
			state == FB_PRESENTED ? "presented" : "discarded",
			f->state == FB_PRESENTED ? "presented" : "discarded");
		return;
	}
	if (index != c->n_resolved) {
		FAIL(c, "frame %d ended before frame %d", index, c->n_resolved);
	}
	f->state = state;
	f->received_ns = now_ns();
	c->n_resolved++;
	wp_presentation_feedback_destroy(f->feedback);
	f->feedback = NULL;
}

static void handle_sync_output(void *data, struct wp_presentation_feedback *fb,
		struct wl_output *output)
{
	struct frame *f = data;
	f->synced_output = true;
}

static void handle_presented(void *data, struct wp_presentation_feedback *fb,
		uint32_t tv_sec_hi, uint32_t tv_sec_lo, uint32_t tv_nsec, uint32_t refresh,
		uint32_t seq_hi, uint32_t seq_lo, uint32_t flags)
{
	struct frame *f = data;
	f->presented_ns = (int64_t)(((uint64_t)tv_sec_hi << 32) | tv_sec_lo) * 1000000000 +
		tv_nsec;
	f->seq = ((uint64_t)seq_hi << 32) | seq_lo;
	f->refresh_ns = refresh;
	f->flags = flags;
	resolve(f->client, f, FB_PRESENTED);
}

static void handle_discarded(void *data, struct wp_presentation_feedback *fb)
{
	struct frame *f = data;
	resolve(f->client, f, FB_DISCARDED);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
	.sync_output = handle_sync_output,
	.presented = handle_presented,
	.discarded = handle_discarded,
};

static void handle_clock_id(void *data, struct wp_presentation *p, uint32_t clk_id)
{
	struct pres_client *c = data;
	c->clock_id = clk_id;
	c->have_clock = true;
}

static const struct wp_presentation_listener presentation_listener = {
	.clock_id = handle_clock_id,
};

static void handle_output_mode(void *data, struct wl_output *output, uint32_t flags,
		int32_t width, int32_t height, int32_t refresh)
{
	struct pres_client *c = data;
	if (flags & WL_OUTPUT_MODE_CURRENT) {
		c->output_refresh_mhz = refresh;
	}
}

static void handle_output_geometry(void *data, struct wl_output *o, int32_t x, int32_t y,
		int32_t pw, int32_t ph, int32_t subpixel, const char *make, const char *model,
		int32_t transform)
{
}

static void handle_output_done(void *data, struct wl_output *o)
{
}

static void handle_output_scale(void *data, struct wl_output *o, int32_t factor)
{
}

static const struct wl_output_listener output_listener = {
	.geometry = handle_output_geometry,
	.mode = handle_output_mode,
	.done = handle_output_done,
	.scale = handle_output_scale,
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
		const char *interface, uint32_t version)
{
	struct pres_client *c = data;
	if (strcmp(interface, wp_presentation_interface.name) == 0) {
		c->presentation = wl_registry_bind(registry, name, &wp_presentation_interface, 1);
		wp_presentation_add_listener(c->presentation, &presentation_listener, c);
	} else if (strcmp(interface, wl_output_interface.name) == 0 && !c->output) {
		c->output = wl_registry_bind(registry, name, &wl_output_interface, 2);
		wl_output_add_listener(c->output, &output_listener, c);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_xdg_configure(void *data, struct xdg_surface *surface, uint32_t serial)
{
	struct pres_client *c = data;
	xdg_surface_ack_configure(surface, serial);
	c->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = handle_xdg_configure,
};

static void handle_frame_done(void *data, struct wl_callback *cb, uint32_t time)
{
	struct pres_client *c = data;
	c->frame_done = true;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener frame_listener = {
	.done = handle_frame_done,
};

/* Dispatches until *flag or the wait runs out; false on either failure. */
static bool wait_until(struct pres_client *c, const bool *flag, int timeout_ms)
{
	struct wl_display *display = c->globals.display;
	int64_t deadline = now_ns() + (int64_t)timeout_ms * 1000000;
	while (!*flag) {
		if (wl_display_dispatch_pending(display) < 0 || wl_display_flush(display) < 0) {
			client_report_display_error(&c->globals);
			return false;
		}
		if (*flag) {
			break;
		}
		int left = (int)((deadline - now_ns()) / 1000000);
		if (left <= 0) {
			return false;
		}
		struct pollfd pfd = { .fd = wl_display_get_fd(display), .events = POLLIN };
		if (poll(&pfd, 1, left) > 0 && wl_display_dispatch(display) < 0) {
			client_report_display_error(&c->globals);
			return false;
		}
	}
	return true;
}

/* Commits frame i: new pixels when draw, with a feedback, and a frame callback when paced. */
static void commit_frame(struct pres_client *c, bool draw, bool paced)
{
	struct frame *f = &c->frames[c->n_committed];
	if (draw) {
		uint32_t colour = 0xff000000u | (uint32_t)(c->n_committed * 0x010305u & 0xffffff);
		struct shm_buffer *buffer = shm_buffer_create(c->globals.shm, &c->buffers,
			SIZE, SIZE, colour, false);
		if (buffer) {
			shm_buffer_attach(buffer, c->surface);
			shm_buffer_retire(buffer);
			wl_surface_damage(c->surface, 0, 0, SIZE, SIZE);
		}
	}
	f->client = c;
	f->feedback = wp_presentation_feedback(c->presentation, c->surface);
	wp_presentation_feedback_add_listener(f->feedback, &feedback_listener, f);
	if (paced) {
		c->frame_done = false;
		struct wl_callback *cb = wl_surface_frame(c->surface);
		wl_callback_add_listener(cb, &frame_listener, c);
	}
	f->committed_ns = now_ns();
	wl_surface_commit(c->surface);
	c->n_committed++;
}

static void check(struct pres_client *c)
{
	if (!c->have_clock || c->clock_id != CLOCK_MONOTONIC) {
		FAIL(c, "clock_id %u, not CLOCK_MONOTONIC (%d)", c->clock_id, CLOCK_MONOTONIC);
	}
	int64_t expected_refresh = c->output_refresh_mhz > 0 ?
		(1000000000000LL + c->output_refresh_mhz / 2) / c->output_refresh_mhz : 0;
	struct frame *last = NULL;
	for (int i = 0; i < c->n_committed; i++) {
		struct frame *f = &c->frames[i];
		if (f->state == FB_PENDING) {
			FAIL(c, "frame %d: no presented or discarded event", i);
			continue;
		}
		if (f->state != FB_PRESENTED) {
			continue;
		}
		if (f->presented_ns < f->committed_ns) {
			FAIL(c, "frame %d: presented %lld ns before it was committed", i,
				(long long)(f->committed_ns - f->presented_ns));
		}
		if (f->presented_ns > f->received_ns) {
			FAIL(c, "frame %d: presented %lld ns in the future", i,
				(long long)(f->presented_ns - f->received_ns));
		}
		if (last && f->presented_ns < last->presented_ns) {
			FAIL(c, "frame %d: presented %lld ns before the frame before it", i,
				(long long)(last->presented_ns - f->presented_ns));
		}
		if (last && f->seq <= last->seq) {
			FAIL(c, "frame %d: seq %llu after %llu", i, (unsigned long long)f->seq,
				(unsigned long long)last->seq);
		}
		if (llabs((long long)f->refresh_ns - expected_refresh) > 1) {
			FAIL(c, "frame %d: refresh %u ns; the output's mode (%d mHz) has %lld", i,
				f->refresh_ns, c->output_refresh_mhz, (long long)expected_refresh);
		}
		uint32_t claims = WP_PRESENTATION_FEEDBACK_KIND_VSYNC |
			WP_PRESENTATION_FEEDBACK_KIND_HW_CLOCK |
			WP_PRESENTATION_FEEDBACK_KIND_HW_COMPLETION;
		if (f->flags & claims) {
			FAIL(c, "frame %d: flags 0x%x claim vsync or hardware on a headless output",
				i, f->flags);
		}
		if (!f->synced_output) {
			FAIL(c, "frame %d: presented without sync_output", i);
		}
		last = f;
	}
}

int main(int argc, char *argv[])
{
	struct pres_client c = {0};
	bool animated = true;
	int frames = 300;
	static const struct option options[] = {
		{"mode", required_argument, NULL, 'm'},
		{"frames", required_argument, NULL, 'n'},
		{0},
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (opt == 'm' && (strcmp(optarg, "animated") == 0 || strcmp(optarg, "idle") == 0)) {
			animated = strcmp(optarg, "animated") == 0;
		} else if (opt == 'n' && client_parse_int(optarg, 1, 100000, &frames)) {
		} else {
			fprintf(stderr, "usage: oriel-test-presentation [--mode animated|idle] "
				"[--frames N]\n");
			return 2;
		}
	}
	if (!client_globals_init(&c.globals, "oriel-test-presentation")) {
		return 1;
	}
	wl_list_init(&c.buffers);
	c.registry = wl_display_get_registry(c.globals.display);
	wl_registry_add_listener(c.registry, &registry_listener, &c);
	wl_display_roundtrip(c.globals.display);
	wl_display_roundtrip(c.globals.display);
	if (!c.presentation || !c.output || !c.globals.wm_base || !c.globals.shm) {
		fprintf(stderr, "oriel-test-presentation: no wp_presentation, wl_output, "
			"xdg_wm_base or wl_shm\n");
		return 1;
	}
	c.n_frames = frames + 2;
	c.frames = calloc((size_t)c.n_frames, sizeof(*c.frames));
	c.surface = wl_compositor_create_surface(c.globals.compositor);
	c.xdg_surface = xdg_wm_base_get_xdg_surface(c.globals.wm_base, c.surface);
	xdg_surface_add_listener(c.xdg_surface, &xdg_surface_listener, &c);
	c.toplevel = xdg_surface_get_toplevel(c.xdg_surface);
	xdg_toplevel_set_title(c.toplevel, "presentation");
	wl_surface_commit(c.surface);
	if (!wait_until(&c, &c.configured, WAIT_MS)) {
		fprintf(stderr, "oriel-test-presentation: no configure\n");
		return 1;
	}

	/* Mapped and shown first, so that every checked frame has something to replace. */
	commit_frame(&c, true, true);
	bool ok = wait_until(&c, &c.frame_done, WAIT_MS);
	for (int i = 0; ok && i < frames; i++) {
		if (animated) {
			commit_frame(&c, true, true);
			ok = wait_until(&c, &c.frame_done, WAIT_MS);
		} else {
			commit_frame(&c, false, false);
			wl_display_flush(c.globals.display);
			bool never = false;
			wait_until(&c, &never, 16);
		}
	}
	if (!ok) {
		FAIL(&c, "frame %d: no frame callback within %d ms", c.n_committed - 1, WAIT_MS);
	}
	/* New pixels end whatever is still pending. */
	commit_frame(&c, true, true);
	bool all = false;
	int64_t deadline = now_ns() + (int64_t)WAIT_MS * 1000000;
	while (c.n_resolved < c.n_committed && now_ns() < deadline) {
		if (!wait_until(&c, &all, 50) && wl_display_get_error(c.globals.display)) {
			break;
		}
	}
	check(&c);

	int presented = 0, discarded = 0;
	for (int i = 0; i < c.n_committed; i++) {
		presented += c.frames[i].state == FB_PRESENTED;
		discarded += c.frames[i].state == FB_DISCARDED;
	}
	if (animated && presented < c.n_committed - 2) {
		FAIL(&c, "only %d of %d paced frames with new pixels were presented",
			presented, c.n_committed);
	}
	printf("presented %d discarded %d\n", presented, discarded);
	fflush(stdout);

	for (int i = 0; i < c.n_committed; i++) {
		if (c.frames[i].feedback) {
			wp_presentation_feedback_destroy(c.frames[i].feedback);
		}
	}
	xdg_toplevel_destroy(c.toplevel);
	xdg_surface_destroy(c.xdg_surface);
	wl_surface_destroy(c.surface);
	shm_buffer_destroy_all(&c.buffers);
	wp_presentation_destroy(c.presentation);
	wl_output_destroy(c.output);
	wl_registry_destroy(c.registry);
	free(c.frames);
	client_globals_finish(&c.globals);
	return c.errors ? 1 : 0;
}
