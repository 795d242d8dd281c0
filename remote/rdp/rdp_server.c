/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <freerdp/channels/channels.h>
#include <winpr/ssl.h>
#include <winpr/wlog.h>
#include <winpr/wtsapi.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "capture/output_capture.h"
#include "remote/monitor_layout.h"
#include "remote/rdp/rdp.h"
#include "remote/rdp/rdp_private.h"
#include "remote/rdp/rdp_stage_time.h"
#include "compositor/options.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/virtual_output.h"

/*
 * The served outputs (screens): each capture's damage is copied into the
 * framebuffer at the output's place in the desktop and handed to every
 * session (rdp_display.c), which sends it when its client has taken the
 * frame before. Nothing runs while the outputs are idle, and there is no
 * framebuffer while no client is in its session. The desktop is
 * the screens' bounding box in the layout; it is the primary output
 * alone unless a client's monitors made more (rdp_layout.c).
 *
 * A frame goes one way: capture -> framebuffer -> rdp_display.c ->
 * encoder -> the client. What a frame's handler needs of the captures
 * themselves (a picture again, the desktop resized after its output) is
 * done from the loop afterwards (ask_later), never inside their signals.
 */


static int align16(int n) {
	return (n + 15) & ~15;
}

/*
 * The framebuffer catches up with the held buffer in region, then the
 * buffer goes (drop) or stays held with nothing behind.
 */
static void catch_up(struct rdp_server *rdp, const pixman_region32_t *region, bool drop) {
	if (rdp->latest && rdp->fb && rdp->n_screens > 0 &&
			pixman_region32_not_empty((pixman_region32_t *)region)) {
		struct output_capture_frame latest = {
			.buffer = rdp->latest,
			.width = rdp->latest->width,
			.height = rdp->latest->height,
		};
		output_capture_frame_copy(rdp->screens[0]->capture, &latest, region,
			rdp->fb, rdp->stride, rdp->width, rdp->height, 0, 0, false);
	}
	pixman_region32_clear(&rdp->fb_behind);
	if (drop) {
		wlr_buffer_unlock(rdp->latest);
		rdp->latest = NULL;
	}
}

void rdp_server_fb_sync(struct rdp_server *rdp) {
	catch_up(rdp, &rdp->fb_behind, false);
}

const uint8_t *rdp_server_latest_begin(struct rdp_server *rdp, int *stride) {
	if (!rdp->latest || !pixman_region32_not_empty(&rdp->fb_behind) ||
			!output_capture_pixels_begin(rdp->latest, &rdp->latest_pixels)) {
		return NULL;
	}
	*stride = (int)rdp->latest_pixels.stride;
	return rdp->latest_pixels.data;
}

void rdp_server_latest_end(struct rdp_server *rdp) {
	if (rdp->latest) {
		output_capture_pixels_end(rdp->latest, &rdp->latest_pixels);
	}
}

static void free_framebuffer(struct rdp_server *rdp) {
	pixman_region32_clear(&rdp->fb_behind); /* nothing to catch up with */
	catch_up(rdp, &rdp->fb_behind, true);
	if (rdp->fb) {
		munmap(rdp->fb, rdp->fb_size);
	}
	rdp->fb = NULL;
	rdp->fb_size = 0;
}

/*
 * A zeroed framebuffer for the desktop's size; false (logged) without
 * memory. Mapped of its own, so that its pages go back to the system
 * when it goes, whatever malloc would keep.
 */
static bool allocate_framebuffer(struct rdp_server *rdp) {
	size_t size = (size_t)rdp->padded_width * rdp->padded_height * 4;
	uint8_t *fb = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		-1, 0);
	if (fb == MAP_FAILED) {
		wlr_log(WLR_ERROR, "RDP: out of memory for a %dx%d desktop", rdp->width,
			rdp->height);
		return false;
	}
	free_framebuffer(rdp);
	rdp->fb = fb;
	rdp->fb_size = size;
	return true;
}

/* The desktop's new size, and a framebuffer of it if one is held. */
static bool resize_framebuffer(struct rdp_server *rdp, int width, int height) {
	int old[5] = { rdp->width, rdp->height, rdp->padded_width, rdp->padded_height,
		rdp->stride };
	rdp->width = width;
	rdp->height = height;
	rdp->padded_width = align16(width);
	rdp->padded_height = align16(height);
	rdp->stride = rdp->padded_width * 4;
	if (!rdp->fb || allocate_framebuffer(rdp)) {
		return true;
	}
	rdp->width = old[0];
	rdp->height = old[1];
	rdp->padded_width = old[2];
	rdp->padded_height = old[3];
	rdp->stride = old[4];
	return false;
}

bool rdp_server_fb_ready(const struct rdp_server *rdp) {
	return rdp->fb && rdp->fb_waiting == 0;
}

bool rdp_server_fb_acquire(struct rdp_server *rdp) {
	if (rdp->fb) {
		return true;
	}
	if (!allocate_framebuffer(rdp)) {
		return false;
	}
	rdp->fb_waiting = rdp->n_screens;
	for (int i = 0; i < rdp->n_screens; i++) {
		rdp->screens[i]->needs_whole = true;
		output_capture_request_pixels(rdp->screens[i]->capture);
	}
	return true;
}

void rdp_server_fb_release(struct rdp_server *rdp) {
	free_framebuffer(rdp);
	rdp->fb_waiting = 0;
}

static void handle_capture_asks(void *data) {
	struct rdp_server *rdp = data;
	rdp->capture_asks = NULL; /* an idle source is gone once it ran */
	if (rdp->desktop_due) {
		rdp->desktop_due = false;
		rdp_server_update_desktop(rdp); /* asks every capture for its whole picture */
	}
	for (int i = 0; i < rdp->n_screens; i++) {
		struct rdp_screen *screen = rdp->screens[i];
		if (screen->wants_pixels) {
			screen->wants_pixels = false;
			output_capture_request_pixels(screen->capture);
		}
	}
}

/* From inside a capture's signal: screen's picture again, or (NULL) the desktop. */
static void ask_later(struct rdp_server *rdp, struct rdp_screen *screen) {
	if (screen) {
		screen->wants_pixels = true;
	} else {
		rdp->desktop_due = true;
	}
	if (!rdp->capture_asks) {
		rdp->capture_asks = wl_event_loop_add_idle(rdp->server->loop,
			handle_capture_asks, rdp);
	}
}

/*
 * Whether frame may stay in its buffer, the framebuffer catching up
 * later: it is the whole desktop's picture, in memory, and the
 * framebuffer holds all the rest already.
 */
static bool frame_stays(struct rdp_screen *screen, struct output_capture_frame *frame) {
	struct rdp_server *rdp = screen->rdp;
	struct output_capture_pixels pixels;
	if (rdp->n_screens != 1 || screen->x != 0 || screen->y != 0 ||
			frame->width != rdp->width || frame->height != rdp->height ||
			screen->needs_whole || rdp->fb_waiting != 0 ||
			!output_capture_pixels_begin(frame->buffer, &pixels)) {
		return false;
	}
	output_capture_pixels_end(frame->buffer, &pixels);
	return true;
}

/*
 * Copies what changed, or the whole picture where the framebuffer waits
 * for it (or holds the frame's buffer, which has it all). Once it has
 * every screen's, all of the desktop goes to the clients, which waited
 * for it.
 */
static void copy_frame(struct rdp_screen *screen, struct output_capture_frame *frame) {
	struct rdp_server *rdp = screen->rdp;
	if (!rdp->fb) {
		return; /* no client: nothing to keep */
	}
	if (frame_stays(screen, frame)) {
		pixman_region32_t damage, rest;
		pixman_region32_init(&damage);
		pixman_region32_intersect_rect(&damage, frame->damage, 0, 0, rdp->width,
			rdp->height);
		/* What the last buffer had and this frame does not bring anew. */
		pixman_region32_init(&rest);
		pixman_region32_subtract(&rest, &rdp->fb_behind, &damage);
		catch_up(rdp, &rest, true);
		pixman_region32_fini(&rest);
		rdp->latest = wlr_buffer_lock(frame->buffer);
		pixman_region32_copy(&rdp->fb_behind, &damage);
		rdp_display_damage(rdp, &damage);
		pixman_region32_fini(&damage);
		return;
	}
	catch_up(rdp, &rdp->fb_behind, true);
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	if (screen->needs_whole) {
		pixman_region32_union_rect(&damage, &damage, 0, 0, frame->width, frame->height);
	}
	pixman_region32_union(&damage, &damage, frame->damage);
	pixman_region32_intersect_rect(&damage, &damage, 0, 0,
		screen->width < frame->width ? screen->width : frame->width,
		screen->height < frame->height ? screen->height : frame->height);
	if (output_capture_frame_copy(screen->capture, frame, &damage, rdp->fb,
			rdp->stride, rdp->width, rdp->height, screen->x, screen->y, false)) {
		pixman_region32_translate(&damage, screen->x, screen->y);
		pixman_region32_intersect_rect(&damage, &damage, 0, 0, rdp->width, rdp->height);
		if (screen->needs_whole) {
			screen->needs_whole = false;
			if (--rdp->fb_waiting == 0) {
				pixman_region32_union_rect(&damage, &damage, 0, 0, rdp->width,
					rdp->height);
			}
		}
		if (rdp->fb_waiting == 0) {
			rdp_display_damage(rdp, &damage);
		}
	} else if (screen->needs_whole) {
		ask_later(rdp, screen); /* the clients wait for it */
	}
	pixman_region32_fini(&damage);
}

static void take_frame(struct rdp_screen *screen, struct output_capture_frame *frame) {
	int64_t begin = rdp_stage_begin();
	copy_frame(screen, frame);
	rdp_stage_end(RDP_STAGE_COPY, begin);
}

static void handle_capture_frame(struct wl_listener *listener, void *data) {
	struct rdp_screen *screen = wl_container_of(listener, screen, capture_frame);
	struct output_capture_frame *frame = data;
	if (frame->width != screen->width || frame->height != screen->height) {
		/*
		 * Its output changed size: the desktop follows from the loop, and
		 * then asks for whole pictures; meanwhile this one, as far as it fits.
		 */
		ask_later(screen->rdp, NULL);
		pixman_region32_union_rect(frame->damage, frame->damage, 0, 0,
			frame->width, frame->height);
	}
	take_frame(screen, frame);
}

/* Nothing changed, but a framebuffer taken again asked for the picture. */
static void handle_capture_pixels(struct wl_listener *listener, void *data) {
	struct rdp_screen *screen = wl_container_of(listener, screen, capture_pixels);
	struct output_capture_frame *frame = data;
	if (screen->needs_whole && frame->width == screen->width &&
			frame->height == screen->height) {
		take_frame(screen, frame);
	}
}

static void screen_destroy(struct rdp_screen *screen, bool put) {
	catch_up(screen->rdp, &screen->rdp->fb_behind, true);
	rdp_cursor_detach(screen);
	if (screen->needs_whole && screen->rdp->fb_waiting > 0) {
		screen->rdp->fb_waiting--;
	}
	wl_list_remove(&screen->capture_frame.link);
	wl_list_remove(&screen->capture_pixels.link);
	wl_list_remove(&screen->capture_destroy.link);
	if (put) {
		output_capture_put(screen->capture);
	}
	free(screen);
}

static void remove_screen(struct rdp_server *rdp, int i, bool put) {
	screen_destroy(rdp->screens[i], put);
	rdp->n_screens--;
	for (; i < rdp->n_screens; i++) {
		rdp->screens[i] = rdp->screens[i + 1];
	}
}

static void handle_capture_destroy(struct wl_listener *listener, void *data) {
	struct rdp_screen *screen = wl_container_of(listener, screen, capture_destroy);
	struct rdp_server *rdp = screen->rdp;
	/* Named from the copy: the output is on its way out. */
	wlr_log(WLR_INFO, "RDP: output %s went away", screen->name);
	if (rdp->primary == screen->output) {
		rdp->primary = NULL;
	}
	for (int i = 0; i < rdp->n_screens; i++) {
		if (rdp->screens[i] == screen) {
			remove_screen(rdp, i, false);
			break;
		}
	}
}

static struct rdp_screen *screen_create(struct rdp_server *rdp, struct output *output) {
	struct rdp_screen *screen = zalloc(sizeof(*screen));
	screen->rdp = rdp;
	screen->output = output;
	snprintf(screen->name, sizeof(screen->name), "%s", output->wlr_output->name);
	screen->capture = output_capture_get(output);
	screen->capture_frame.notify = handle_capture_frame;
	screen->capture_pixels.notify = handle_capture_pixels;
	screen->capture_destroy.notify = handle_capture_destroy;
	wl_signal_add(&screen->capture->events.frame, &screen->capture_frame);
	wl_signal_add(&screen->capture->events.pixels, &screen->capture_pixels);
	wl_signal_add(&screen->capture->events.destroy, &screen->capture_destroy);
	rdp_cursor_attach(screen);
	return screen;
}

/* Whether output is still one of the compositor's (not going away). */
static bool output_alive(struct rdp_server *rdp, struct output *output) {
	struct output *o;
	wl_list_for_each(o, &rdp->server->outputs, link) {
		if (o == output) {
			return true;
		}
	}
	return false;
}

static struct output *first_output(struct rdp_server *rdp) {
	if (wl_list_empty(&rdp->server->outputs)) {
		return NULL;
	}
	struct output *output = wl_container_of(rdp->server->outputs.next, output, link);
	return output;
}

/* The outputs to serve, in order: the primary, then those made for monitors. */
static int served_outputs(struct rdp_server *rdp, struct output **out) {
	if (!rdp->primary || !output_alive(rdp, rdp->primary)) {
		rdp->primary = first_output(rdp);
	}
	int n = 0;
	if (rdp->primary) {
		out[n++] = rdp->primary;
	}
	for (int i = 0; i < rdp->n_monitor_outputs && n < RDP_MAX_SCREENS; i++) {
		struct output *output = virtual_output_get(rdp->monitor_outputs[i]);
		if (output && output != rdp->primary && output_alive(rdp, output)) {
			out[n++] = output;
		}
	}
	return n;
}

/* Screens for exactly these outputs, in this order; true if that changed them. */
static bool follow_outputs(struct rdp_server *rdp, struct output **outputs, int n) {
	bool changed = false;
	for (int i = rdp->n_screens - 1; i >= 0; i--) {
		bool wanted = false;
		for (int j = 0; j < n; j++) {
			wanted = wanted || outputs[j] == rdp->screens[i]->output;
		}
		if (!wanted) {
			/* An output going away has no capture left to put. */
			remove_screen(rdp, i, output_alive(rdp, rdp->screens[i]->output));
			changed = true;
		}
	}
	struct rdp_screen *screens[RDP_MAX_SCREENS];
	for (int j = 0; j < n; j++) {
		screens[j] = NULL;
		for (int i = 0; i < rdp->n_screens; i++) {
			if (rdp->screens[i]->output == outputs[j]) {
				screens[j] = rdp->screens[i];
			}
		}
		if (!screens[j]) {
			screens[j] = screen_create(rdp, outputs[j]);
			changed = true;
		}
		changed = changed || j >= rdp->n_screens || rdp->screens[j] != screens[j];
	}
	for (int j = 0; j < n; j++) {
		rdp->screens[j] = screens[j];
	}
	rdp->n_screens = n;
	return changed;
}

void rdp_server_update_desktop(struct rdp_server *rdp) {
	if (rdp->applying_layout) {
		return;
	}
	struct output *outputs[RDP_MAX_SCREENS];
	int n = served_outputs(rdp, outputs);
	bool changed = follow_outputs(rdp, outputs, n);
	int boxes[4 * RDP_MAX_SCREENS];
	struct wlr_box layout_boxes[RDP_MAX_SCREENS];
	for (int i = 0; i < n; i++) {
		struct wlr_box box;
		output_layout_box(rdp->screens[i]->output, &box);
		layout_boxes[i] = box;
		struct wlr_output *wlr_output = rdp->screens[i]->output->wlr_output;
		boxes[4 * i] = box.x;
		boxes[4 * i + 1] = box.y;
		boxes[4 * i + 2] = wlr_output->width;
		boxes[4 * i + 3] = wlr_output->height;
	}
	int x, y, width, height;
	remote_monitor_bounds(boxes, n, &x, &y, &width, &height);
	if (n == 0 || width <= 0 || height <= 0) {
		return; /* nothing to serve: the last desktop stays */
	}
	changed = changed || x != rdp->desktop_x || y != rdp->desktop_y;
	for (int i = 0; i < n; i++) {
		struct rdp_screen *screen = rdp->screens[i];
		const int *b = &boxes[4 * i];
		changed = changed || screen->layout_x != b[0] || screen->layout_y != b[1] ||
			screen->width != b[2] || screen->height != b[3] ||
			screen->layout_width != layout_boxes[i].width ||
			screen->layout_height != layout_boxes[i].height;
	}
	bool resized = width != rdp->width || height != rdp->height;
	if (!changed && !resized) {
		return;
	}
	catch_up(rdp, &rdp->fb_behind, true);
	if (!resized) {
		/* Where an output was may be no output's now. */
		if (rdp->fb) {
			memset(rdp->fb, 0, (size_t)rdp->stride * rdp->padded_height);
		}
	} else if (!resize_framebuffer(rdp, width, height)) {
		return;
	}
	rdp->desktop_x = x;
	rdp->desktop_y = y;
	for (int i = 0; i < n; i++) {
		struct rdp_screen *screen = rdp->screens[i];
		const int *b = &boxes[4 * i];
		screen->layout_x = b[0];
		screen->layout_y = b[1];
		screen->x = b[0] - x;
		screen->y = b[1] - y;
		screen->width = b[2];
		screen->height = b[3];
		screen->layout_width = layout_boxes[i].width;
		screen->layout_height = layout_boxes[i].height;
		output_capture_request_full(screen->capture);
	}
	rdp->layout_serial++;
	if (n == 1) {
		wlr_log(WLR_INFO, "RDP: the desktop is now %dx%d", width, height);
	} else {
		wlr_log(WLR_INFO, "RDP: the desktop is now %dx%d, %d outputs", width, height, n);
	}
	rdp_display_resized(rdp);
}

static void handle_outputs_changed(struct wl_listener *listener, void *data) {
	struct rdp_server *rdp = wl_container_of(listener, rdp, outputs_changed);
	rdp_server_update_desktop(rdp);
}

bool rdp_desktop_to_layout(struct rdp_server *rdp, int x, int y, double *lx, double *ly) {
	for (int i = 0; i < rdp->n_screens; i++) {
		const struct rdp_screen *screen = rdp->screens[i];
		if (x >= screen->x && y >= screen->y && x < screen->x + screen->width &&
				y < screen->y + screen->height) {
			/* Scaled outputs: their layout box is not their buffer's size. */
			*lx = screen->layout_x + (x - screen->x + 0.5) * screen->layout_width /
				screen->width;
			*ly = screen->layout_y + (y - screen->y + 0.5) * screen->layout_height /
				screen->height;
			return true;
		}
	}
	return false;
}

/* One compositor, one RDP server: the control API finds it here. */
static struct rdp_server *the_rdp;

struct rdp_server *rdp_server_of(struct server *server) {
	return the_rdp && the_rdp->server == server ? the_rdp : NULL;
}

static struct rdp_server *server_create(struct server *server, bool listen);

struct rdp_server *rdp_server_create(struct server *server) {
	/* Hosted by oriel-gateway: its clients come without a listener of ours. */
	if (server->options->rdp.n_listen == 0 && !server->handover) {
		return NULL;
	}
	return server_create(server, true);
}

struct rdp_server *rdp_server_create_unlistened(struct server *server) {
	return server_create(server, false);
}

void rdp_certificate(struct rdp_server *rdp, const char **path, const char **sha256) {
	*path = rdp->tls.cert_path;
	*sha256 = rdp->tls.fingerprint;
}

static struct rdp_server *server_create(struct server *server, bool listen) {
	const struct options_rdp *options = &server->options->rdp;
	if (the_rdp) {
		wlr_log(WLR_ERROR, "RDP: a server runs already");
		return NULL;
	}
	winpr_InitializeSSL(WINPR_SSL_INIT_DEFAULT);
	/* Virtual channels through FreeRDP's own WTS API (winpr would look for FreeRDS). */
	WTSRegisterWtsApiFunctionTable(FreeRDP_InitWtsApi());
	if (!getenv("WLOG_LEVEL")) {
		/* FreeRDP's own log: its errors, or everything with --debug. */
		WLog_SetLogLevel(WLog_GetRoot(), server->options->debug ? WLOG_INFO : WLOG_ERROR);
	}
	struct rdp_server *rdp = zalloc(sizeof(*rdp));
	rdp->server = server;
	pixman_region32_init(&rdp->fb_behind);
	rdp->options = options;
	rdp_listen_setup(rdp);
	wl_list_init(&rdp->peers);
	rdp->primary = first_output(rdp);
	if (!rdp->primary) {
		wlr_log(WLR_ERROR, "RDP: no output to serve");
		pixman_region32_fini(&rdp->fb_behind);
		free(rdp);
		return NULL;
	}
	rdp->watchdog = rdp_watchdog_create();
	if (!rdp->watchdog || !rdp_auth_init(rdp)) {
		rdp_server_destroy(rdp);
		return NULL;
	}
	rdp_server_update_desktop(rdp);
	rdp->outputs_changed.notify = handle_outputs_changed;
	wl_signal_add(&server->events_outputs_changed, &rdp->outputs_changed);
	the_rdp = rdp;
	if (listen && !rdp_listen_init(rdp)) {
		rdp_server_destroy(rdp);
		return NULL;
	}
	rdp_handover_init(rdp);
	wlr_log(WLR_INFO, "RDP: serving %s (%dx%d)", rdp->primary->wlr_output->name,
		rdp->width, rdp->height);
	return rdp;
}

void rdp_server_destroy(struct rdp_server *rdp) {
	if (!rdp) {
		return;
	}
	if (the_rdp == rdp) {
		the_rdp = NULL;
	}
	rdp_handover_finish(rdp);
	rdp_listen_finish(rdp);
	rdp_peers_finish(rdp);
	if (rdp->capture_asks) {
		wl_event_source_remove(rdp->capture_asks);
	}
	if (rdp->outputs_changed.notify) {
		wl_list_remove(&rdp->outputs_changed.link);
	}
	while (rdp->n_screens > 0) {
		remove_screen(rdp, rdp->n_screens - 1, true);
	}
	rdp_layout_finish(rdp);
	rdp_auth_finish(rdp);
	rdp_watchdog_destroy(rdp->watchdog);
	free_framebuffer(rdp);
	pixman_region32_fini(&rdp->fb_behind);
	free(rdp);
}
