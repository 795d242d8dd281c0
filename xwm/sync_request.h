/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_XWM_SYNC_REQUEST_H
#define ORIEL_XWM_SYNC_REQUEST_H

/*
 * _NET_WM_SYNC_REQUEST (EWMH, basic mode): before the WM resizes a window
 * whose client lists the protocol and has a _NET_WM_SYNC_REQUEST_COUNTER,
 * it sends the client a serial; the client sets the counter to it once it
 * has drawn the new size. Until then further resizes wait (the latest is
 * kept) and the window's surface keeps showing what it showed. A client
 * that does not answer within SYNC_REQUEST_TIMEOUT_MS is resized without
 * sync from then on, until it answers after all.
 */

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include <wlr/util/box.h>
#include <xcb/sync.h>

#define SYNC_REQUEST_TIMEOUT_MS 1000

struct view;
struct xwm_x11;
struct wlr_surface;
struct wlr_xwayland_surface;

struct sync_request {
	struct view *view;
	struct wlr_xwayland_surface *xsurface;
	/* Read once per mapping; 0 when the window has none. */
	bool counter_read;
	xcb_sync_counter_t counter;
	xcb_sync_alarm_t alarm;
	int64_t serial; /* the last one sent */
	bool waiting;
	/* The client let a request time out: resized without sync. */
	bool ignored;
	bool has_pending;
	struct wlr_box pending;
	struct wl_event_source *timer;
	/* The surface's state held back while the client draws. */
	struct wlr_surface *frozen;
	uint32_t frozen_seq;
	struct wl_listener frozen_destroy;
};

void sync_request_init(struct sync_request *sync, struct view *view,
	struct wlr_xwayland_surface *xsurface);
void sync_request_finish(struct sync_request *sync);
/* The window unmapped: its counter is read again when it maps again. */
void sync_request_unmapped(struct sync_request *sync);
/*
 * A configure the WM is about to send. Returns true when it must wait for
 * the client's answer (it is then sent later through view->impl->configure);
 * otherwise the caller sends it now, after any sync request made here.
 */
bool sync_request_configure(struct sync_request *sync, const struct wlr_box *box);

/* oriel's X connection: the SYNC extension, and its alarm events. */
bool sync_request_init_connection(struct xwm_x11 *x11);
void sync_request_alarm_notify(struct xwm_x11 *x11,
	const xcb_sync_alarm_notify_event_t *event);

#endif
