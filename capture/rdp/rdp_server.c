/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <freerdp/channels/channels.h>
#include <winpr/ssl.h>
#include <winpr/wlog.h>
#include <winpr/wtsapi.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "capture/output_capture.h"
#include "capture/remote/desktop_size.h"
#include "capture/rdp/rdp.h"
#include "capture/rdp/rdp_private.h"
#include "compositor/options.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "compositor/util.h"

/*
 * The served output: its capture's damage is copied into the framebuffer
 * and handed to every session (rdp_display.c), which sends it when its
 * client has taken the frame before. Nothing runs while the output is
 * idle.
 */

int64_t rdp_now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int align16(int n) {
	return (n + 15) & ~15;
}

static void resize_framebuffer(struct rdp_server *rdp, int width, int height) {
	if (width <= 0 || height <= 0 || (width == rdp->width && height == rdp->height)) {
		return;
	}
	int padded_width = align16(width), padded_height = align16(height);
	uint8_t *fb = calloc((size_t)padded_width * padded_height, 4);
	if (!fb) {
		wlr_log(WLR_ERROR, "RDP: out of memory for a %dx%d desktop", width, height);
		return;
	}
	free(rdp->fb);
	rdp->fb = fb;
	rdp->width = width;
	rdp->height = height;
	rdp->padded_width = padded_width;
	rdp->padded_height = padded_height;
	rdp->stride = padded_width * 4;
	wlr_log(WLR_INFO, "RDP: the desktop is now %dx%d", width, height);
	rdp_display_resized(rdp);
	if (rdp->capture) {
		output_capture_request_full(rdp->capture);
	}
}

static void handle_capture_frame(struct wl_listener *listener, void *data) {
	struct rdp_server *rdp = wl_container_of(listener, rdp, capture_frame);
	struct output_capture_frame *frame = data;
	if (frame->width != rdp->width || frame->height != rdp->height) {
		resize_framebuffer(rdp, frame->width, frame->height);
		pixman_region32_union_rect(frame->damage, frame->damage, 0, 0,
			frame->width, frame->height);
	}
	if (!output_capture_frame_copy(rdp->capture, frame, frame->damage, rdp->fb,
			rdp->stride, rdp->width, rdp->height, 0, 0, false)) {
		return;
	}
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	pixman_region32_intersect_rect(&damage, frame->damage, 0, 0, rdp->width, rdp->height);
	rdp_display_damage(rdp, &damage);
	pixman_region32_fini(&damage);
}

static void detach_output(struct rdp_server *rdp, bool put) {
	if (!rdp->capture) {
		return;
	}
	rdp_cursor_detach(rdp);
	wl_list_remove(&rdp->capture_frame.link);
	wl_list_remove(&rdp->capture_destroy.link);
	if (put) {
		output_capture_put(rdp->capture);
	}
	rdp->capture = NULL;
	rdp->output = NULL;
}

static void handle_capture_destroy(struct wl_listener *listener, void *data) {
	struct rdp_server *rdp = wl_container_of(listener, rdp, capture_destroy);
	wlr_log(WLR_INFO, "RDP: output %s went away", rdp->output->wlr_output->name);
	detach_output(rdp, false);
}

static void attach_output(struct rdp_server *rdp, struct output *output) {
	rdp->output = output;
	rdp->capture = output_capture_get(output);
	rdp->capture_frame.notify = handle_capture_frame;
	rdp->capture_destroy.notify = handle_capture_destroy;
	wl_signal_add(&rdp->capture->events.frame, &rdp->capture_frame);
	wl_signal_add(&rdp->capture->events.destroy, &rdp->capture_destroy);
	resize_framebuffer(rdp, output->wlr_output->width, output->wlr_output->height);
	rdp_cursor_attach(rdp);
	output_capture_request_full(rdp->capture);
}

static struct output *first_output(struct rdp_server *rdp) {
	if (wl_list_empty(&rdp->server->outputs)) {
		return NULL;
	}
	struct output *output = wl_container_of(rdp->server->outputs.next, output, link);
	return output;
}

static void handle_outputs_changed(struct wl_listener *listener, void *data) {
	struct rdp_server *rdp = wl_container_of(listener, rdp, outputs_changed);
	if (!rdp->output) {
		struct output *output = first_output(rdp);
		if (output) {
			attach_output(rdp, output);
		}
		return;
	}
	struct wlr_output *wlr_output = rdp->output->wlr_output;
	resize_framebuffer(rdp, wlr_output->width, wlr_output->height);
}

bool rdp_desktop_to_layout(struct rdp_server *rdp, int x, int y, double *lx, double *ly) {
	if (!rdp->output || x < 0 || y < 0 || x >= rdp->width || y >= rdp->height) {
		return false;
	}
	struct wlr_box box;
	output_layout_box(rdp->output, &box);
	*lx = box.x + (x + 0.5) * box.width / rdp->width;
	*ly = box.y + (y + 0.5) * box.height / rdp->height;
	return true;
}

void rdp_server_session_started(struct rdp_server *rdp, struct rdp_peer *peer) {
	int width = (int)peer->requested_width, height = (int)peer->requested_height;
	if (!rdp->output || rdp->n_sessions > 1 || width <= 0 || height <= 0 ||
			(width == rdp->width && height == rdp->height)) {
		return;
	}
	/* The first client sizes the output; later ones see it as it is. */
	if (!remote_desktop_size_allowed(width, height)) {
		return;
	}
	if (output_set_size(rdp->output, width, height)) {
		wlr_log(WLR_INFO, "RDP: %s asked for %dx%d: the output follows", peer->host,
			width, height);
	}
}

bool rdp_server_client_resize(struct rdp_server *rdp, struct rdp_peer *peer,
		int width, int height) {
	if (!rdp->output || peer->view_only) {
		return false;
	}
	if (width == rdp->width && height == rdp->height) {
		return true;
	}
	if (!remote_desktop_size_allowed(width, height)) {
		wlr_log(WLR_INFO, "RDP: %s asked for %dx%d: refused", peer->host, width, height);
		return false;
	}
	wlr_log(WLR_INFO, "RDP: %s resizes %s to %dx%d", peer->host,
		rdp->output->wlr_output->name, width, height);
	/* The new size reaches every client through outputs_changed. */
	return output_set_size(rdp->output, width, height);
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
	rdp->options = options;
	wl_list_init(&rdp->listeners);
	wl_list_init(&rdp->peers);
	struct output *output = first_output(rdp);
	if (!output) {
		wlr_log(WLR_ERROR, "RDP: no output to serve");
		free(rdp);
		return NULL;
	}
	rdp->watchdog = rdp_watchdog_create();
	if (!rdp->watchdog || !rdp_auth_init(rdp)) {
		rdp_server_destroy(rdp);
		return NULL;
	}
	attach_output(rdp, output);
	rdp->outputs_changed.notify = handle_outputs_changed;
	wl_signal_add(&server->events_outputs_changed, &rdp->outputs_changed);
	the_rdp = rdp;
	if (listen && !rdp_listen_init(rdp)) {
		rdp_server_destroy(rdp);
		return NULL;
	}
	rdp_handover_init(rdp);
	wlr_log(WLR_INFO, "RDP: serving %s (%dx%d)", output->wlr_output->name,
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
	if (rdp->outputs_changed.notify) {
		wl_list_remove(&rdp->outputs_changed.link);
	}
	detach_output(rdp, true);
	rdp_auth_finish(rdp);
	rdp_watchdog_destroy(rdp->watchdog);
	free(rdp->fb);
	free(rdp);
}
