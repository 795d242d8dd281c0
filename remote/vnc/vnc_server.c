/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "capture/output_capture.h"
#include "remote/vnc/vnc.h"
#include "remote/client_info.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * Screen, framebuffer and updates. Damage from the output capture is
 * copied into the framebuffer and marked modified; libvncserver merges it
 * per viewer (modifiedRegion) until that viewer asks for an update, and we
 * send at most max-fps updates per viewer. Nothing runs while idle.
 */

static int64_t elapsed_ms(const struct timespec *since) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - since->tv_sec) * 1000 +
		(now.tv_nsec - since->tv_nsec) / 1000000;
}

static bool update_pending(rfbClientPtr cl) {
	return cl->sock != RFB_INVALID_SOCKET && !cl->onHold &&
		FB_UPDATE_PENDING(cl) && !sraRgnEmpty(cl->requestedRegion);
}

/* Asked for and wanted, and the viewer took the last one (else its relay wakes us). */
static bool update_due(struct vnc_client *client) {
	return update_pending(client->cl) && vnc_backlog_idle(client);
}

static void send_update(struct vnc_client *client) {
	if (!update_due(client)) {
		return;
	}
	/* A released framebuffer is restored first; its frame sends this again. */
	if (!vnc_fb_ready(client->vnc)) {
		return;
	}
	vnc_fb_busy(client->vnc);
	clock_gettime(CLOCK_MONOTONIC, &client->last_update);
	vnc_refine_begin_update(client);
	if (!vnc_raw_update(client)) {
		rfbUpdateClient(client->cl);
	}
	vnc_refine_end_update(client);
	vnc_client_check_gone(client);
}

void vnc_client_schedule_update(struct vnc_client *client) {
	if (client->timer_armed || !update_due(client)) {
		return;
	}
	int64_t interval = 1000 / client->vnc->options->max_fps;
	int64_t since = elapsed_ms(&client->last_update);
	if (since >= interval || since < 0) {
		send_update(client);
		return;
	}
	client->timer_armed = true;
	wl_event_source_timer_update(client->timer, (int)(interval - since));
}

void vnc_schedule_updates(struct vnc_server *vnc) {
	struct vnc_client *client, *tmp;
	wl_list_for_each_safe(client, tmp, &vnc->clients, link) {
		vnc_client_schedule_update(client);
	}
}

static void source_destroy(struct vnc_source *source, bool put);

/*
 * Copies the frame's damage into the framebuffer; a released one
 * (vnc_fb.c) takes the whole frame instead, the output's buffer holding
 * the whole picture, and is whole again.
 */
static bool copy_frame(struct vnc_source *source, const struct output_capture_frame *frame) {
	struct vnc_server *vnc = source->vnc;
	bool restore = vnc->fb_released;
	pixman_region32_t whole;
	pixman_region32_init_rect(&whole, 0, 0, (unsigned)frame->width, (unsigned)frame->height);
	bool ok = output_capture_frame_copy(source->capture, frame,
		restore ? &whole : frame->damage, vnc->fb, vnc->width * 4, vnc->width,
		vnc->height, source->x, source->y, vnc->fb_rgbx);
	pixman_region32_fini(&whole);
	if (ok && restore) {
		vnc_fb_restored(vnc);
	}
	return ok;
}

static void handle_capture_frame(struct wl_listener *listener, void *data) {
	struct vnc_source *source = wl_container_of(listener, source, capture_frame);
	struct vnc_server *vnc = source->vnc;
	struct output_capture_frame *frame = data;
	bool resized = false;
	if (!vnc->layout && (frame->width != vnc->width || frame->height != vnc->height)) {
		vnc_framebuffer_resize(vnc, frame->width, frame->height);
		pixman_region32_union_rect(frame->damage, frame->damage, 0, 0,
			frame->width, frame->height);
		resized = true;
	}
	/* Framebuffer coordinates; looks at the framebuffer before the copy below. */
	pixman_region32_t copied;
	pixman_region32_init(&copied);
	/* A released framebuffer has no old pixels to find a copy in. */
	if (!resized && !vnc->fb_released) {
		vnc_copyrect_frame(source, frame, &copied);
	}
	if (!copy_frame(source, frame)) {
		pixman_region32_fini(&copied);
		return;
	}
	vnc_fb_busy(vnc);
	pixman_region32_t modified;
	pixman_region32_init(&modified);
	pixman_region32_copy(&modified, frame->damage);
	pixman_region32_translate(&modified, source->x, source->y);
	pixman_region32_subtract(&modified, &modified, &copied);
	int n_rects;
	const pixman_box32_t *rects = pixman_region32_rectangles(&modified, &n_rects);
	for (int i = 0; i < n_rects; i++) {
		/* rfbMarkRectAsModified clips to the framebuffer. */
		rfbMarkRectAsModified(vnc->screen, rects[i].x1, rects[i].y1,
			rects[i].x2, rects[i].y2);
	}
	pixman_region32_fini(&modified);
	pixman_region32_fini(&copied);
	vnc_schedule_updates(vnc);
}

/* Nothing changed, but a released framebuffer asked for the picture (vnc_fb.c). */
static void handle_capture_pixels(struct wl_listener *listener, void *data) {
	struct vnc_source *source = wl_container_of(listener, source, capture_pixels);
	struct vnc_server *vnc = source->vnc;
	struct output_capture_frame *frame = data;
	if (vnc->fb_released && frame->width == vnc->width && frame->height == vnc->height &&
			copy_frame(source, frame)) {
		vnc_schedule_updates(vnc);
	}
}

static void handle_capture_destroy(struct wl_listener *listener, void *data) {
	struct vnc_source *source = wl_container_of(listener, source, capture_destroy);
	struct vnc_server *vnc = source->vnc;
	wlr_log(WLR_INFO, "VNC: output %s went away", source->output->wlr_output->name);
	if (source->output == vnc->output) {
		vnc->output = NULL;
	}
	/*
	 * The capture is being destroyed: no put. In the layout the bounding
	 * box follows through outputs_changed, which the compositor emits once
	 * the output has left the layout (re-arranging here, inside the
	 * output's destroy signal, could touch the dying output).
	 */
	source_destroy(source, false);
}

static struct vnc_source *source_create(struct vnc_server *vnc, struct output *output) {
	struct vnc_source *source = zalloc(sizeof(*source));
	source->vnc = vnc;
	source->output = output;
	source->capture = output_capture_get(output);
	source->capture_frame.notify = handle_capture_frame;
	source->capture_pixels.notify = handle_capture_pixels;
	source->capture_destroy.notify = handle_capture_destroy;
	wl_signal_add(&source->capture->events.frame, &source->capture_frame);
	wl_signal_add(&source->capture->events.pixels, &source->capture_pixels);
	wl_signal_add(&source->capture->events.destroy, &source->capture_destroy);
	wl_list_insert(vnc->sources.prev, &source->link);
	return source;
}

static void source_destroy(struct vnc_source *source, bool put) {
	wl_list_remove(&source->capture_frame.link);
	wl_list_remove(&source->capture_pixels.link);
	wl_list_remove(&source->capture_destroy.link);
	vnc_cursor_detach(source);
	wl_list_remove(&source->link);
	if (put) {
		output_capture_put(source->capture);
	}
	free(source);
}

static struct vnc_source *source_of(struct vnc_server *vnc, struct output *output) {
	struct vnc_source *source;
	wl_list_for_each(source, &vnc->sources, link) {
		if (source->output == output) {
			return source;
		}
	}
	return NULL;
}

static void request_full_frames(struct vnc_server *vnc) {
	struct vnc_source *source;
	wl_list_for_each(source, &vnc->sources, link) {
		output_capture_request_full(source->capture);
	}
}

/* The bounding box of the enabled outputs in the layout; false if none. */
static bool layout_bounds(struct vnc_server *vnc, struct wlr_box *bounds) {
	int x1 = 0, y1 = 0, x2 = 0, y2 = 0;
	bool any = false;
	struct output *output;
	wl_list_for_each(output, &vnc->server->outputs, link) {
		struct wlr_box box;
		output_layout_box(output, &box);
		if (box.width <= 0 || box.height <= 0) {
			continue;
		}
		if (!any || box.x < x1) x1 = box.x;
		if (!any || box.y < y1) y1 = box.y;
		if (!any || box.x + box.width > x2) x2 = box.x + box.width;
		if (!any || box.y + box.height > y2) y2 = box.y + box.height;
		any = true;
	}
	*bounds = (struct wlr_box){ x1, y1, x2 - x1, y2 - y1 };
	return any;
}

/*
 * The layout mode: one source per output in the layout, each at its place
 * in the bounding box. Run at start and whenever outputs come, go, move or
 * change size; the framebuffer follows the bounding box.
 */
static void layout_update(struct vnc_server *vnc) {
	struct wlr_box bounds;
	if (!layout_bounds(vnc, &bounds)) {
		return;
	}
	/* Sources for new outputs, and each source's offset. */
	bool moved = bounds.x != vnc->origin_x || bounds.y != vnc->origin_y;
	vnc->origin_x = bounds.x;
	vnc->origin_y = bounds.y;
	struct output *output;
	wl_list_for_each(output, &vnc->server->outputs, link) {
		struct wlr_box box;
		output_layout_box(output, &box);
		struct vnc_source *source = source_of(vnc, output);
		if (box.width <= 0 || box.height <= 0) {
			if (source) {
				source_destroy(source, true);
			}
			continue;
		}
		bool fresh = !source;
		if (fresh) {
			source = source_create(vnc, output);
		}
		int x = box.x - bounds.x, y = box.y - bounds.y;
		if (x != source->x || y != source->y) {
			moved = true;
		}
		source->x = x;
		source->y = y;
		if (fresh && vnc->screen) {
			vnc_cursor_attach(source);
		}
		if (fresh) {
			output_capture_request_full(source->capture);
		}
	}
	if (bounds.width != vnc->width || bounds.height != vnc->height) {
		vnc_framebuffer_resize(vnc, bounds.width, bounds.height); /* full frames */
	} else if (moved) {
		/* Uncovered areas go black; every output is copied again. */
		memset(vnc->fb, 0, (size_t)vnc->width * vnc->height * 4);
		rfbMarkRectAsModified(vnc->screen, 0, 0, vnc->width, vnc->height);
		request_full_frames(vnc);
	}
}

static void attach_output(struct vnc_server *vnc, struct output *output) {
	vnc->output = output;
	struct vnc_source *source = source_create(vnc, output);
	struct wlr_output *wlr_output = output->wlr_output;
	if (wlr_output->width != vnc->width || wlr_output->height != vnc->height) {
		vnc_framebuffer_resize(vnc, wlr_output->width, wlr_output->height);
	}
	if (vnc->screen) {
		vnc_cursor_attach(source);
	}
	output_capture_request_full(source->capture);
}

static struct output *choose_output(struct vnc_server *vnc) {
	const char *name = vnc->options->output;
	if (name && strcmp(name, "layout") != 0) {
		return output_by_name(vnc->server, name);
	}
	if (wl_list_empty(&vnc->server->outputs)) {
		return NULL;
	}
	struct output *output = wl_container_of(vnc->server->outputs.next, output, link);
	return output;
}

static void handle_outputs_changed(struct wl_listener *listener, void *data) {
	struct vnc_server *vnc = wl_container_of(listener, vnc, outputs_changed);
	if (vnc->layout) {
		layout_update(vnc);
		return;
	}
	if (!vnc->output) {
		struct output *output = choose_output(vnc);
		if (output) {
			attach_output(vnc, output);
		}
		return;
	}
	/* A resize, from a viewer or from the control API. */
	struct wlr_output *wlr_output = vnc->output->wlr_output;
	if (wlr_output->width != vnc->width || wlr_output->height != vnc->height) {
		vnc_framebuffer_resize(vnc, wlr_output->width, wlr_output->height);
	}
}

bool vnc_framebuffer_to_layout(struct vnc_server *vnc, int x, int y,
		double *lx, double *ly) {
	if (x < 0 || y < 0 || x >= vnc->width || y >= vnc->height) {
		return false;
	}
	if (vnc->layout) {
		*lx = vnc->origin_x + x + 0.5;
		*ly = vnc->origin_y + y + 0.5;
		return !wl_list_empty(&vnc->sources);
	}
	if (!vnc->output) {
		return false;
	}
	struct wlr_box box;
	output_layout_box(vnc->output, &box);
	*lx = box.x + (x + 0.5) * box.width / vnc->width;
	*ly = box.y + (y + 0.5) * box.height / vnc->height;
	return true;
}

void vnc_framebuffer_resize(struct vnc_server *vnc, int width, int height) {
	if (width <= 0 || height <= 0) {
		return;
	}
	uint8_t *fb = vnc_fb_alloc(width, height);
	if (!fb) {
		wlr_log(WLR_ERROR, "VNC: out of memory for a %dx%d framebuffer", width, height);
		return;
	}
	uint8_t *old = vnc->fb;
	int old_width = vnc->width, old_height = vnc->height;
	vnc->fb = fb;
	vnc->width = width;
	vnc->height = height;
	/* Fresh, and full frames follow. */
	vnc->fb_released = false;
	vnc->fb_wanted = false;
	if (vnc->screen) {
		/* Tells every viewer (NewFBSize / ExtendedDesktopSize). */
		rfbNewFramebuffer(vnc->screen, (char *)fb, width, height, 8, 3, 4);
		vnc_format_apply(vnc);
		wlr_log(WLR_INFO, "VNC: framebuffer is now %dx%d", width, height);
		vnc_backlog_resized(vnc);
	}
	vnc_fb_free(old, old_width, old_height);
	request_full_frames(vnc);
}

/* libvncserver logs whole lines ending in '\n'; wlr_log adds its own. */
static void log_rfb_line(enum wlr_log_importance level, const char *format,
		va_list args) {
	char line[512];
	vsnprintf(line, sizeof(line), format, args);
	size_t len = strlen(line);
	if (len > 0 && line[len - 1] == '\n') {
		line[len - 1] = '\0';
	}
	/*
	 * libvncserver sets TCP_NODELAY on the socket it is given, which is
	 * always a socketpair (vnc_backlog.c sets it on the viewer's socket).
	 */
	if (strstr(line, "TCP_NODELAY")) {
		level = WLR_DEBUG;
	}
	wlr_log(level, "libvncserver: %s", line);
}

/* libvncserver's chatter is debug material; errors go through rfbErr. */
static void log_rfb(const char *format, ...) {
	va_list args;
	va_start(args, format);
	log_rfb_line(WLR_DEBUG, format, args);
	va_end(args);
}

static void log_rfb_error(const char *format, ...) {
	va_list args;
	va_start(args, format);
	log_rfb_line(WLR_INFO, format, args);
	va_end(args);
}

/* One compositor, one VNC server: the control API finds it here. */
static struct vnc_server *the_vnc;

struct vnc_server *vnc_server_of(struct server *server) {
	return the_vnc && the_vnc->server == server ? the_vnc : NULL;
}

static struct vnc_server *server_create(struct server *server, bool listen);

struct vnc_server *vnc_server_create(struct server *server) {
	const struct options_vnc *options = &server->options->vnc;
	if (options->n_listen + options->n_unix == 0 && !options->handover_socket) {
		return NULL;
	}
	return server_create(server, true);
}

struct vnc_server *vnc_server_create_unlistened(struct server *server) {
	return server_create(server, false);
}

static struct vnc_server *server_create(struct server *server, bool listen) {
	const struct options_vnc *options = &server->options->vnc;
	if (the_vnc) {
		wlr_log(WLR_ERROR, "VNC: a server runs already");
		return NULL;
	}
	rfbLog = log_rfb;
	rfbErr = log_rfb_error;
	/* A viewer stalled mid-message must not freeze the compositor for long. */
	rfbMaxClientWait = 2000;

	struct vnc_server *vnc = zalloc(sizeof(*vnc));
	vnc->server = server;
	vnc->options = options;
	vnc_listen_setup(vnc);
	wl_list_init(&vnc->guests);
	wl_list_init(&vnc->http_conns);
	wl_list_init(&vnc->clients);
	wl_list_init(&vnc->sources);
	vnc->layout = options->output && strcmp(options->output, "layout") == 0;
	if (!vnc_http_init(vnc)) {
		vnc_http_finish(vnc);
		free(vnc);
		return NULL;
	}

	struct output *output = choose_output(vnc);
	if (!output) {
		wlr_log(WLR_ERROR, "VNC: no output named %s", options->output);
		vnc_http_finish(vnc);
		free(vnc);
		return NULL;
	}
	int width = output->wlr_output->width > 0 ? output->wlr_output->width : 1;
	int height = output->wlr_output->height > 0 ? output->wlr_output->height : 1;
	struct wlr_box bounds;
	if (vnc->layout && layout_bounds(vnc, &bounds)) {
		width = bounds.width;
		height = bounds.height;
		vnc->origin_x = bounds.x;
		vnc->origin_y = bounds.y;
	}
	vnc->fb = vnc_fb_alloc(width, height);
	vnc->width = width;
	vnc->height = height;

	rfbScreenInfoPtr screen = rfbGetScreen(NULL, NULL, width, height, 8, 3, 4);
	if (!screen || !vnc->fb) {
		wlr_log(WLR_ERROR, "VNC: cannot create the screen");
		vnc_fb_free(vnc->fb, width, height);
		vnc_http_finish(vnc);
		free(vnc);
		return NULL;
	}
	vnc->screen = screen;
	screen->screenData = vnc;
	screen->frameBuffer = (char *)vnc->fb;
	vnc_format_init(vnc);
	screen->desktopName = "oriel";
	screen->alwaysShared = TRUE;
	screen->deferUpdateTime = 0;
	screen->deferPtrUpdateTime = 0;
	screen->cursor = NULL; /* vnc_cursor.c sets the cursor plane's image */
	screen->newClientHook = vnc_client_new_hook;
	screen->permitFileTransfer = FALSE;
	/* We own every socket: libvncserver listens on nothing itself. */
	screen->socketState = RFB_SOCKET_READY;
	screen->port = 0;
	screen->ipv6port = 0;
	screen->httpDir = NULL;
	/* TLS is oriel's (vnc_handshake.c): libvncserver only sees plain bytes. */
	screen->sslcertfile = NULL;
	screen->sslkeyfile = NULL;

	if (!vnc_auth_init(vnc)) {
		goto fail;
	}
	if (!vnc_backlog_init(vnc)) {
		goto fail;
	}
	vnc_input_init(vnc);
	rfbInitServer(screen);
	vnc_resize_init(vnc);
	vnc_clipboard_init(vnc);
	vnc->outputs_changed.notify = handle_outputs_changed;
	wl_signal_add(&server->events_outputs_changed, &vnc->outputs_changed);
	if (vnc->layout) {
		layout_update(vnc);
	} else {
		attach_output(vnc, output);
	}
	the_vnc = vnc;
	if (!listen) {
		vnc_listen_init_http(vnc); /* listeners come from the control API */
	} else if (!vnc_listen_init(vnc)) {
		vnc_server_destroy(vnc);
		return NULL;
	}
	vnc_unviewed_init(vnc);
	vnc_handover_init(vnc);
	vnc_fb_init(vnc);
	if (vnc->layout) {
		wlr_log(WLR_INFO, "VNC: serving the layout of %d output(s) (%dx%d at %d,%d)",
			wl_list_length(&vnc->sources), vnc->width, vnc->height,
			vnc->origin_x, vnc->origin_y);
	} else {
		wlr_log(WLR_INFO, "VNC: serving %s (%dx%d)", output->wlr_output->name,
			vnc->width, vnc->height);
	}
	return vnc;

fail:
	rfbScreenCleanup(screen);
	vnc_auth_finish(vnc);
	vnc_fb_free(vnc->fb, vnc->width, vnc->height);
	vnc_http_finish(vnc);
	free(vnc);
	return NULL;
}

size_t vnc_list_clients(struct vnc_server *vnc, struct remote_client_info *out, size_t max) {
	size_t n = 0;
	struct vnc_client *client;
	/* Newest first in the list: walk it backwards. */
	wl_list_for_each_reverse(client, &vnc->clients, link) {
		if (!client->logged_in) {
			continue;
		}
		if (n < max) {
			struct remote_client_info *info = &out[n];
			info->id = client->id;
			const char *host = client->cl->host;
			snprintf(info->peer, sizeof(info->peer), "%s", host && host[0] ? host : "unix");
			info->view_only = client->cl->viewOnly;
		}
		n++;
	}
	return n;
}

bool vnc_disconnect_client(struct vnc_server *vnc, uint64_t id) {
	struct vnc_client *client;
	wl_list_for_each(client, &vnc->clients, link) {
		if (client->id == id) {
			wlr_log(WLR_INFO, "VNC: disconnecting viewer %" PRIu64 " (%s) on request",
				id, client->cl->host ? client->cl->host : "?");
			rfbCloseClient(client->cl);
			vnc_client_check_gone(client);
			return true;
		}
	}
	return false;
}

void vnc_certificate(struct vnc_server *vnc, const char **path, const char **sha256) {
	*path = vnc->tls.cert_path;
	*sha256 = vnc->tls.fingerprint;
}

void vnc_server_destroy(struct vnc_server *vnc) {
	if (!vnc) {
		return;
	}
	if (the_vnc == vnc) {
		the_vnc = NULL;
	}
	vnc_unviewed_finish(vnc);
	vnc_handover_finish(vnc);
	vnc_listen_finish(vnc);
	vnc_http_finish(vnc);
	/* Disconnects every viewer; our clientGoneHook frees each vnc_client. */
	rfbShutdownServer(vnc->screen, TRUE);
	struct vnc_source *source, *tmp;
	wl_list_for_each_safe(source, tmp, &vnc->sources, link) {
		source_destroy(source, true);
	}
	vnc->output = NULL;
	wl_list_remove(&vnc->outputs_changed.link);
	vnc_clipboard_finish(vnc);
	vnc_resize_finish(vnc);
	rfbScreenCleanup(vnc->screen);
	vnc_backlog_finish(vnc);
	vnc_auth_finish(vnc);
	vnc_fb_finish(vnc);
	vnc_fb_free(vnc->fb, vnc->width, vnc->height);
	free(vnc);
}
