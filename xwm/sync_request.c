/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>
#include "compositor/server.h"
#include "compositor/view.h"
#include "xwm/sync_request.h"
#include "xwm/x11.h"
#include "xwm/xwayland.h"

static struct xwm_x11 *sync_x11(struct sync_request *sync) {
	struct xwm_x11 *x11 = xwm_get_x11(sync->view->server->xwm);
	return x11 && x11->has_sync ? x11 : NULL;
}

static int64_t from_xcb(xcb_sync_int64_t value) {
	return (int64_t)(((uint64_t)(uint32_t)value.hi << 32) | value.lo);
}

static xcb_sync_int64_t to_xcb(int64_t value) {
	return (xcb_sync_int64_t){
		.hi = (int32_t)((uint64_t)value >> 32),
		.lo = (uint32_t)value,
	};
}

bool sync_request_init_connection(struct xwm_x11 *x11) {
	const xcb_query_extension_reply_t *ext = xcb_get_extension_data(x11->conn,
		&xcb_sync_id);
	if (!ext || !ext->present) {
		wlr_log(WLR_INFO, "No SYNC extension: no _NET_WM_SYNC_REQUEST");
		return false;
	}
	xcb_sync_initialize_reply_t *version = xcb_sync_initialize_reply(x11->conn,
		xcb_sync_initialize(x11->conn, XCB_SYNC_MAJOR_VERSION, XCB_SYNC_MINOR_VERSION),
		NULL);
	const char *name = "_NET_WM_SYNC_REQUEST_COUNTER";
	xcb_intern_atom_reply_t *atom = xcb_intern_atom_reply(x11->conn,
		xcb_intern_atom(x11->conn, 0, strlen(name), name), NULL);
	x11->has_sync = version && atom;
	if (x11->has_sync) {
		x11->sync_event_base = ext->first_event;
		x11->sync_counter_atom = atom->atom;
	}
	free(version);
	free(atom);
	return x11->has_sync;
}

static void handle_frozen_destroy(struct wl_listener *listener, void *data) {
	struct sync_request *sync = wl_container_of(listener, sync, frozen_destroy);
	wl_list_remove(&sync->frozen_destroy.link);
	sync->frozen = NULL;
}

/* Commits of the surface are held back (cached) from now on. */
static void freeze(struct sync_request *sync) {
	struct wlr_surface *surface = sync->xsurface->surface;
	if (sync->frozen || !surface) {
		return;
	}
	sync->frozen = surface;
	sync->frozen_seq = wlr_surface_lock_pending(surface);
	sync->frozen_destroy.notify = handle_frozen_destroy;
	wl_signal_add(&surface->events.destroy, &sync->frozen_destroy);
}

static void thaw(struct sync_request *sync) {
	if (!sync->frozen) {
		return;
	}
	struct wlr_surface *surface = sync->frozen;
	wl_list_remove(&sync->frozen_destroy.link);
	sync->frozen = NULL;
	wlr_surface_unlock_cached(surface, sync->frozen_seq);
}

/* The wait is over: the client answered, timed out or went away. */
static void stop_waiting(struct sync_request *sync) {
	sync->waiting = false;
	if (sync->timer) {
		wl_event_source_timer_update(sync->timer, 0);
	}
	thaw(sync);
}

static void apply_pending(struct sync_request *sync) {
	if (!sync->has_pending) {
		return;
	}
	sync->has_pending = false;
	struct wlr_box box = sync->pending;
	sync->view->impl->configure(sync->view, &box);
}

static int handle_timeout(void *data) {
	struct sync_request *sync = data;
	if (!sync->waiting) {
		return 0;
	}
	wlr_log(WLR_INFO, "X window 0x%x did not answer _NET_WM_SYNC_REQUEST %lld "
		"within %d ms: resizing it without sync", sync->xsurface->window_id,
		(long long)sync->serial, SYNC_REQUEST_TIMEOUT_MS);
	sync->ignored = true;
	stop_waiting(sync);
	apply_pending(sync);
	return 0;
}

void sync_request_init(struct sync_request *sync, struct view *view,
		struct wlr_xwayland_surface *xsurface) {
	*sync = (struct sync_request){ .view = view, .xsurface = xsurface };
}

static void destroy_alarm(struct sync_request *sync) {
	if (!sync->alarm) {
		return;
	}
	struct xwm_x11 *x11 = sync_x11(sync);
	if (x11) {
		xcb_sync_destroy_alarm(x11->conn, sync->alarm);
		xcb_flush(x11->conn);
	}
	sync->alarm = 0;
}

void sync_request_unmapped(struct sync_request *sync) {
	stop_waiting(sync);
	sync->has_pending = false;
	sync->ignored = false;
	sync->counter_read = false;
	sync->counter = 0;
	destroy_alarm(sync);
}

void sync_request_finish(struct sync_request *sync) {
	sync_request_unmapped(sync);
	if (sync->timer) {
		wl_event_source_remove(sync->timer);
		sync->timer = NULL;
	}
}

/* _NET_WM_SYNC_REQUEST_COUNTER and the counter's current value. */
static void read_counter(struct sync_request *sync, struct xwm_x11 *x11) {
	sync->counter_read = true;
	sync->counter = 0;
	xcb_window_t window = sync->xsurface->window_id;
	xcb_get_property_reply_t *reply = xcb_get_property_reply(x11->conn,
		xcb_get_property(x11->conn, 0, window, x11->sync_counter_atom,
			XCB_ATOM_CARDINAL, 0, 2), NULL);
	xcb_sync_counter_t counter = 0;
	/* Basic mode: the first counter (EWMH 1.5 may list an extended second). */
	if (reply && reply->type == XCB_ATOM_CARDINAL && reply->format == 32 &&
			xcb_get_property_value_length(reply) >= 4) {
		counter = *(uint32_t *)xcb_get_property_value(reply);
	}
	free(reply);
	if (counter) {
		xcb_sync_query_counter_reply_t *value = xcb_sync_query_counter_reply(x11->conn,
			xcb_sync_query_counter(x11->conn, counter), NULL);
		if (value) {
			sync->counter = counter;
			sync->serial = from_xcb(value->counter_value);
		} else {
			wlr_log(WLR_DEBUG, "X window 0x%x names no usable sync counter", window);
		}
		free(value);
	}
	xwm_x11_schedule_drain(x11);
}

static bool wants_sync(struct sync_request *sync, struct xwm_x11 *x11) {
	struct wlr_xwayland_surface *xsurface = sync->xsurface;
	if (!x11 || sync->ignored || !sync->view->mapped || !xsurface->surface ||
			!xwm_x11_has_protocol(xsurface->protocols, xsurface->protocols_len,
				x11->atoms[ATOM_NET_WM_SYNC_REQUEST])) {
		return false;
	}
	if (!sync->counter_read) {
		read_counter(sync, x11);
	}
	return sync->counter != 0;
}

/* Wakes oriel (an alarm event) once the counter reaches the serial. */
static void arm_alarm(struct sync_request *sync, struct xwm_x11 *x11) {
	xcb_sync_create_alarm_value_list_t values = {
		.counter = sync->counter,
		.valueType = XCB_SYNC_VALUETYPE_ABSOLUTE,
		.value = to_xcb(sync->serial),
		.testType = XCB_SYNC_TESTTYPE_POSITIVE_COMPARISON,
		/* Non-zero, so that the alarm stays active once it fired. */
		.delta = to_xcb(1),
		.events = 1,
	};
	if (!sync->alarm) {
		sync->alarm = xcb_generate_id(x11->conn);
		xcb_sync_create_alarm_aux(x11->conn, sync->alarm, XCB_SYNC_CA_COUNTER |
			XCB_SYNC_CA_VALUE_TYPE | XCB_SYNC_CA_VALUE | XCB_SYNC_CA_TEST_TYPE |
			XCB_SYNC_CA_DELTA | XCB_SYNC_CA_EVENTS, &values);
	} else {
		xcb_sync_change_alarm_value_list_t change = {
			.valueType = values.valueType,
			.value = values.value,
			.testType = values.testType,
			.delta = values.delta,
			.events = values.events,
		};
		xcb_sync_change_alarm_aux(x11->conn, sync->alarm, XCB_SYNC_CA_VALUE |
			XCB_SYNC_CA_VALUE_TYPE | XCB_SYNC_CA_TEST_TYPE | XCB_SYNC_CA_DELTA |
			XCB_SYNC_CA_EVENTS, &change);
	}
}

static void send_request(struct sync_request *sync, struct xwm_x11 *x11) {
	sync->serial++;
	xcb_window_t window = sync->xsurface->window_id;
	xcb_client_message_event_t event = {
		.response_type = XCB_CLIENT_MESSAGE,
		.format = 32,
		.window = window,
		.type = x11->atoms[ATOM_WM_PROTOCOLS],
		.data.data32 = {
			x11->atoms[ATOM_NET_WM_SYNC_REQUEST],
			XCB_CURRENT_TIME,
			(uint32_t)sync->serial,
			(uint32_t)((uint64_t)sync->serial >> 32),
			0, /* basic, not extended */
		},
	};
	xcb_send_event(x11->conn, 0, window, XCB_EVENT_MASK_NO_EVENT, (const char *)&event);
	arm_alarm(sync, x11);
	/*
	 * The configure goes out on wlroots' X connection: the client must
	 * have the serial before its ConfigureNotify, so the server handles
	 * this connection's requests first.
	 */
	free(xcb_get_input_focus_reply(x11->conn, xcb_get_input_focus(x11->conn), NULL));
	xwm_x11_schedule_drain(x11);

	if (!sync->timer) {
		sync->timer = wl_event_loop_add_timer(sync->view->server->loop,
			handle_timeout, sync);
	}
	if (sync->timer) {
		wl_event_source_timer_update(sync->timer, SYNC_REQUEST_TIMEOUT_MS);
	}
	sync->waiting = true;
	freeze(sync);
}

bool sync_request_configure(struct sync_request *sync, const struct wlr_box *box) {
	bool resize = box->width != sync->xsurface->width ||
		box->height != sync->xsurface->height;
	if (sync->waiting) {
		/* Only the latest size matters; a move at the asked size goes now. */
		sync->has_pending = resize;
		if (resize) {
			sync->pending = *box;
		}
		return resize;
	}
	struct xwm_x11 *x11 = sync_x11(sync);
	if (resize && wants_sync(sync, x11)) {
		send_request(sync, x11);
	}
	return false;
}

static struct sync_request *find_by_alarm(struct server *server, xcb_sync_alarm_t alarm) {
	struct view *view;
	wl_list_for_each(view, &server->views, link) {
		struct sync_request *sync = xwayland_view_sync(view);
		if (sync && sync->alarm == alarm) {
			return sync;
		}
	}
	return NULL;
}

void sync_request_alarm_notify(struct xwm_x11 *x11,
		const xcb_sync_alarm_notify_event_t *event) {
	struct sync_request *sync = find_by_alarm(x11->server, event->alarm);
	if (!sync) {
		return;
	}
	if (event->state == XCB_SYNC_ALARMSTATE_DESTROYED) {
		/* The client destroyed its counter. */
		sync->alarm = 0;
		sync->counter = 0;
		stop_waiting(sync);
		apply_pending(sync);
		return;
	}
	if (from_xcb(event->counter_value) < sync->serial) {
		return;
	}
	if (sync->ignored) {
		wlr_log(WLR_INFO, "X window 0x%x answers _NET_WM_SYNC_REQUEST again",
			sync->xsurface->window_id);
		sync->ignored = false;
	}
	if (!sync->waiting) {
		return;
	}
	stop_waiting(sync);
	apply_pending(sync);
}
