/* SPDX-License-Identifier: MIT */
/* See xdnd_bridge.h. XDND version 5 (freedesktop.org's XDND specification). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>
#include "compositor/seat.h"
#include "compositor/server.h"
#include "common/util.h"
#include "xwm/x11.h"
#include "xwm/xdnd_bridge.h"
#include "xwm/xdnd_types.h"
#include "xwm/xwayland.h"

#define XDND_VERSION 5
#define MAX_TYPES 32
#define MAX_DATA_BYTES (64u * 1024 * 1024)
/* How long either side may take to finish after the drop. */
#define FINISH_TIMEOUT_MS 10000

enum bridge_atom {
	A_XDND_AWARE,
	A_XDND_SELECTION,
	A_XDND_ENTER,
	A_XDND_POSITION,
	A_XDND_STATUS,
	A_XDND_LEAVE,
	A_XDND_DROP,
	A_XDND_FINISHED,
	A_XDND_TYPE_LIST,
	A_XDND_ACTION_COPY,
	A_INCR,
	A_DATA,
	A_COUNT,
};

static const char *const atom_names[A_COUNT] = {
	[A_XDND_AWARE] = "XdndAware",
	[A_XDND_SELECTION] = "XdndSelection",
	[A_XDND_ENTER] = "XdndEnter",
	[A_XDND_POSITION] = "XdndPosition",
	[A_XDND_STATUS] = "XdndStatus",
	[A_XDND_LEAVE] = "XdndLeave",
	[A_XDND_DROP] = "XdndDrop",
	[A_XDND_FINISHED] = "XdndFinished",
	[A_XDND_TYPE_LIST] = "XdndTypeList",
	[A_XDND_ACTION_COPY] = "XdndActionCopy",
	[A_INCR] = "INCR",
	[A_DATA] = "_ORIEL_XDND_DATA",
};

/* The X drag's data, offered to Wayland clients. */
struct xdnd_source {
	struct wlr_data_source base;
	struct xdnd_bridge *bridge;
	xcb_atom_t targets[MAX_TYPES]; /* the X target of each MIME type, in order */
};

/* One conversion of XdndSelection, written to a Wayland client's fd. */
struct transfer {
	struct wl_list link; /* xdnd_bridge.transfers: the first one is under way */
	xcb_atom_t target;
	int fd;
	char *data;
	size_t size, written;
	bool incr; /* the X source sends it in pieces */
	struct wl_event_source *writable;
};

struct xdnd_bridge {
	struct xwm_x11 *x11;
	struct server *server;
	xcb_atom_t atoms[A_COUNT];
	xcb_window_t proxy;
	bool proxy_shown;
	/* The X window the drag started on, and how to give it its release. */
	struct wlr_surface *origin;
	double origin_x, origin_y; /* its layout position */
	uint32_t button;
	xcb_window_t x_source; /* from XdndEnter */
	int x_root_x, x_root_y; /* where the X source last saw the pointer */
	xcb_timestamp_t x_time; /* of its last XdndPosition: conversions use it */
	struct xdnd_source *source; /* the Wayland side, while it lasts */
	bool dropped;       /* the Wayland target took the drop */
	bool wayland_done;  /* ... and finished, or the Wayland drag ended without */
	bool released;      /* the X source got its button release */
	bool x_dropped;     /* the X source sent XdndDrop */
	struct wl_list transfers; /* done one after the other */
	struct wl_event_source *release_idle;
	struct wl_event_source *reset_idle;
	struct wl_event_source *finish_timer;
	struct wl_listener cursor_motion;
	struct wl_listener cursor_motion_absolute;
	struct wl_listener origin_destroy;
};

static uint32_t now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static void send_to_source(struct xdnd_bridge *bridge, enum bridge_atom type,
		uint32_t d1, uint32_t d2, uint32_t d3, uint32_t d4) {
	if (!bridge->x_source) {
		return;
	}
	xcb_client_message_event_t event = {
		.response_type = XCB_CLIENT_MESSAGE,
		.format = 32,
		.window = bridge->x_source,
		.type = bridge->atoms[type],
		.data.data32 = { bridge->proxy, d1, d2, d3, d4 },
	};
	xcb_send_event(bridge->x11->conn, 0, bridge->x_source, XCB_EVENT_MASK_NO_EVENT,
		(const char *)&event);
	xwm_x11_flush(bridge->x11);
}

/* XdndStatus: whether a drop here would be taken. */
static void send_status(struct xdnd_bridge *bridge, bool accept) {
	/* Bit 1: send positions even within the (empty) rectangle. */
	send_to_source(bridge, A_XDND_STATUS, (accept ? 1u : 0u) | 2u, 0, 0,
		accept ? bridge->atoms[A_XDND_ACTION_COPY] : XCB_ATOM_NONE);
}

static void show_proxy(struct xdnd_bridge *bridge, bool shown) {
	xcb_connection_t *conn = bridge->x11->conn;
	if (shown) {
		const xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(conn)).data;
		uint32_t values[] = { 0, 0, screen->width_in_pixels, screen->height_in_pixels,
			XCB_STACK_MODE_ABOVE };
		xcb_configure_window(conn, bridge->proxy, XCB_CONFIG_WINDOW_X |
			XCB_CONFIG_WINDOW_Y | XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT |
			XCB_CONFIG_WINDOW_STACK_MODE, values);
		xcb_map_window(conn, bridge->proxy);
	} else {
		xcb_unmap_window(conn, bridge->proxy);
	}
	xwm_x11_flush(bridge->x11);
	bridge->proxy_shown = shown;
}

static void set_origin(struct xdnd_bridge *bridge, struct wlr_surface *surface) {
	if (bridge->origin) {
		wl_list_remove(&bridge->origin_destroy.link);
	}
	bridge->origin = surface;
	if (surface) {
		wl_signal_add(&surface->events.destroy, &bridge->origin_destroy);
	}
}

static void handle_origin_destroy(struct wl_listener *listener, void *data) {
	struct xdnd_bridge *bridge = wl_container_of(listener, bridge, origin_destroy);
	set_origin(bridge, NULL);
}

static struct transfer *current_transfer(struct xdnd_bridge *bridge) {
	return wl_list_empty(&bridge->transfers) ? NULL :
		wl_container_of(bridge->transfers.next, (struct transfer *)NULL, link);
}

static void start_conversion(struct xdnd_bridge *bridge) {
	struct transfer *t = current_transfer(bridge);
	if (t) {
		xcb_convert_selection(bridge->x11->conn, bridge->proxy,
			bridge->atoms[A_XDND_SELECTION], t->target, bridge->atoms[A_DATA],
			bridge->x_time);
		xwm_x11_flush(bridge->x11);
	}
}

static void transfer_destroy(struct transfer *t) {
	if (t->writable) {
		wl_event_source_remove(t->writable);
	}
	wl_list_remove(&t->link);
	close(t->fd);
	free(t->data);
	free(t);
}

/* The transfer under way is over: the next one starts. */
static void transfer_done(struct xdnd_bridge *bridge) {
	struct transfer *t = current_transfer(bridge);
	if (t) {
		transfer_destroy(t);
		start_conversion(bridge);
	}
}

static void transfers_clear(struct xdnd_bridge *bridge) {
	struct transfer *t, *tmp;
	wl_list_for_each_safe(t, tmp, &bridge->transfers, link) {
		transfer_destroy(t);
	}
}

/* The drag is over on both sides: back to waiting for the next one. */
static void reset(struct xdnd_bridge *bridge) {
	transfers_clear(bridge);
	if (bridge->source) {
		struct xdnd_source *source = bridge->source;
		bridge->source = NULL;
		source->bridge = NULL;
		wlr_data_source_destroy(&source->base);
	}
	if (bridge->release_idle) {
		wl_event_source_remove(bridge->release_idle);
		bridge->release_idle = NULL;
	}
	if (bridge->reset_idle) {
		wl_event_source_remove(bridge->reset_idle);
		bridge->reset_idle = NULL;
	}
	if (bridge->finish_timer) {
		wl_event_source_remove(bridge->finish_timer);
		bridge->finish_timer = NULL;
	}
	if (bridge->proxy_shown) {
		show_proxy(bridge, false);
	}
	set_origin(bridge, NULL);
	bridge->x_source = XCB_WINDOW_NONE;
	bridge->dropped = bridge->wayland_done = bridge->released = bridge->x_dropped = false;
}

static void handle_reset_idle(void *data) {
	struct xdnd_bridge *bridge = data;
	bridge->reset_idle = NULL;
	reset(bridge);
}

/*
 * Both sides are done with the data: the X source may let go of it. The
 * rest waits for an idle moment: this runs inside wlroots' handling of the
 * Wayland side, which must not see its source freed under it.
 */
static void maybe_finish(struct xdnd_bridge *bridge) {
	if (!bridge->x_dropped || !bridge->wayland_done || current_transfer(bridge) ||
			bridge->reset_idle) {
		return;
	}
	send_to_source(bridge, A_XDND_FINISHED, bridge->dropped ? 1u : 0u,
		bridge->dropped ? bridge->atoms[A_XDND_ACTION_COPY] : XCB_ATOM_NONE, 0, 0);
	bridge->x_source = XCB_WINDOW_NONE;
	bridge->reset_idle = wl_event_loop_add_idle(bridge->server->loop,
		handle_reset_idle, bridge);
}

static void schedule_release(struct xdnd_bridge *bridge);

static void arm_timeout(struct xdnd_bridge *bridge, int (*fn)(void *data)) {
	if (bridge->finish_timer) {
		wl_event_source_remove(bridge->finish_timer);
	}
	bridge->finish_timer = wl_event_loop_add_timer(bridge->server->loop, fn, bridge);
	if (bridge->finish_timer) {
		wl_event_source_timer_update(bridge->finish_timer, FINISH_TIMEOUT_MS);
	}
}

/*
 * A side did not finish in time. Before the release: the Wayland client
 * never took the data; the X source is released all the same. After it:
 * the X source never dropped, or its data never came; it is over.
 */
static int handle_timeout(void *data) {
	struct xdnd_bridge *bridge = data;
	wlr_log(WLR_INFO, "X drag and drop: no answer within %d ms; ending it",
		FINISH_TIMEOUT_MS);
	transfers_clear(bridge);
	bridge->wayland_done = true;
	if (!bridge->released) {
		schedule_release(bridge);
	} else if (bridge->x_dropped) {
		maybe_finish(bridge);
	} else {
		reset(bridge);
	}
	return 0;
}

/*
 * The Wayland side is done (it took the data, or did not want it): the X
 * source, which still holds its pointer grab, now gets the button release
 * the Wayland drag took, over the proxy, and drops there (or leaves, when
 * the status says no). The data was fetched before, while the X drag
 * still ran (XDND lets a target convert at any time after XdndEnter), so
 * the X source's XdndDrop is answered with XdndFinished at once.
 */
static void handle_release_idle(void *data) {
	struct xdnd_bridge *bridge = data;
	bridge->release_idle = NULL;
	bridge->released = true;
	struct seat *seat = bridge->server->seat;
	send_status(bridge, bridge->dropped);
	if (bridge->origin) {
		/*
		 * Where the X source last saw the pointer: no motion, so no new
		 * XdndPosition for the release to race with.
		 */
		struct wlr_seat *wlr_seat = seat->wlr_seat;
		wlr_seat_pointer_enter(wlr_seat, bridge->origin,
			bridge->x_root_x - bridge->origin_x, bridge->x_root_y - bridge->origin_y);
		wlr_seat_pointer_send_button(wlr_seat, now_ms(), bridge->button,
			WLR_BUTTON_RELEASED);
		wlr_seat_pointer_send_frame(wlr_seat);
	}
	seat_update_pointer_focus(seat, now_ms());
	arm_timeout(bridge, handle_timeout);
}

static void schedule_release(struct xdnd_bridge *bridge) {
	if (!bridge->release_idle && !bridge->released) {
		bridge->release_idle = wl_event_loop_add_idle(bridge->server->loop,
			handle_release_idle, bridge);
	}
}

/* -- the Wayland data source ------------------------------------------- */

static struct xdnd_source *source_from(struct wlr_data_source *base) {
	struct xdnd_source *source = wl_container_of(base, source, base);
	return source;
}

static void source_send(struct wlr_data_source *base, const char *mime_type, int32_t fd) {
	struct xdnd_source *source = source_from(base);
	struct xdnd_bridge *bridge = source->bridge;
	xcb_atom_t target = XCB_ATOM_NONE;
	size_t i = 0;
	char **p;
	wl_array_for_each(p, &base->mime_types) {
		if (i < MAX_TYPES && strcmp(*p, mime_type) == 0) {
			target = source->targets[i];
			break;
		}
		i++;
	}
	wlr_log(WLR_DEBUG, "X drag and drop: %s asked for (X target %u)", mime_type, target);
	if (!bridge || target == XCB_ATOM_NONE) {
		close(fd);
		return;
	}
	struct transfer *t = zalloc(sizeof(*t));
	t->fd = fd;
	t->target = target;
	wl_list_insert(bridge->transfers.prev, &t->link);
	if (current_transfer(bridge) == t) {
		start_conversion(bridge);
	}
}

static void source_dnd_drop(struct wlr_data_source *base) {
	struct xdnd_bridge *bridge = source_from(base)->bridge;
	wlr_log(WLR_DEBUG, "X drag and drop: dropped on a Wayland client");
	if (bridge) {
		bridge->dropped = true;
		arm_timeout(bridge, handle_timeout);
	}
}

static void source_dnd_finish(struct wlr_data_source *base) {
	struct xdnd_bridge *bridge = source_from(base)->bridge;
	wlr_log(WLR_DEBUG, "X drag and drop: the Wayland client finished");
	if (bridge) {
		bridge->wayland_done = true;
		schedule_release(bridge);
		maybe_finish(bridge);
	}
}

static void source_destroy(struct wlr_data_source *base) {
	struct xdnd_source *source = source_from(base);
	struct xdnd_bridge *bridge = source->bridge;
	wlr_log(WLR_DEBUG, "X drag and drop: the Wayland data source ends (accepted %d, "
		"action %d)", base->accepted, base->current_dnd_action);
	free(source);
	if (!bridge) {
		return;
	}
	/* Cancelled (no Wayland target took it), or over after the drop. */
	bridge->source = NULL;
	bridge->wayland_done = true;
	schedule_release(bridge);
	maybe_finish(bridge);
}

static const struct wlr_data_source_impl source_impl = {
	.send = source_send,
	.dnd_drop = source_dnd_drop,
	.dnd_finish = source_dnd_finish,
	.destroy = source_destroy,
};

/* -- writing a conversion to the Wayland client ------------------------- */

static int handle_fd_writable(int fd, uint32_t mask, void *data) {
	struct xdnd_bridge *bridge = data;
	struct transfer *t = current_transfer(bridge);
	while (t->written < t->size) {
		ssize_t n = write(t->fd, t->data + t->written, t->size - t->written);
		if (n < 0 && errno == EAGAIN) {
			return 0;
		}
		if (n <= 0) {
			break; /* the reader went away */
		}
		t->written += (size_t)n;
	}
	if (t->incr && t->written == t->size && !(mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR))) {
		/* More pieces are coming. */
		wl_event_source_remove(t->writable);
		t->writable = NULL;
		return 0;
	}
	transfer_done(bridge);
	maybe_finish(bridge);
	return 0;
}

static void write_out(struct xdnd_bridge *bridge) {
	struct transfer *t = current_transfer(bridge);
	if (!t->writable) {
		fcntl(t->fd, F_SETFL, fcntl(t->fd, F_GETFL) | O_NONBLOCK);
		t->writable = wl_event_loop_add_fd(bridge->server->loop, t->fd,
			WL_EVENT_WRITABLE, handle_fd_writable, bridge);
	}
}

/* Reads (and deletes) the data property; false when the transfer failed. */
static bool read_data(struct xdnd_bridge *bridge, bool *incr_start) {
	struct transfer *t = current_transfer(bridge);
	xcb_get_property_reply_t *reply = xcb_get_property_reply(bridge->x11->conn,
		xcb_get_property(bridge->x11->conn, 1, bridge->proxy, bridge->atoms[A_DATA],
			XCB_GET_PROPERTY_TYPE_ANY, 0, MAX_DATA_BYTES / 4), NULL);
	xwm_x11_schedule_drain(bridge->x11);
	if (!reply) {
		return false;
	}
	*incr_start = reply->type == bridge->atoms[A_INCR];
	size_t len = *incr_start ? 0 : (size_t)xcb_get_property_value_length(reply);
	bool ok = t->size + len <= MAX_DATA_BYTES;
	if (ok && len > 0) {
		char *grown = realloc(t->data, t->size + len);
		ok = grown != NULL;
		if (ok) {
			memcpy(grown + t->size, xcb_get_property_value(reply), len);
			t->data = grown;
			t->size += len;
		}
	}
	free(reply);
	if (ok && !*incr_start && t->incr && len == 0) {
		t->incr = false; /* the empty piece ends it */
	}
	return ok;
}

bool xdnd_bridge_selection_notify(struct xdnd_bridge *bridge,
		xcb_selection_notify_event_t *event) {
	if (!bridge || event->requestor != bridge->proxy ||
			event->selection != bridge->atoms[A_XDND_SELECTION]) {
		return false;
	}
	struct transfer *t = current_transfer(bridge);
	if (!t || event->target != t->target) {
		return true;
	}
	bool incr_start = false;
	wlr_log(WLR_DEBUG, "X drag and drop: conversion to %u answered, property %u",
		event->target, event->property);
	if (event->property == XCB_ATOM_NONE || !read_data(bridge, &incr_start)) {
		transfer_done(bridge);
		maybe_finish(bridge);
		return true;
	}
	if (incr_start) {
		t->incr = true; /* pieces come as PropertyNotify */
		return true;
	}
	write_out(bridge);
	return true;
}

bool xdnd_bridge_property_notify(struct xdnd_bridge *bridge,
		xcb_property_notify_event_t *event) {
	if (!bridge || event->window != bridge->proxy) {
		return false;
	}
	struct transfer *t = current_transfer(bridge);
	if (!t || !t->incr || event->atom != bridge->atoms[A_DATA] ||
			event->state != XCB_PROPERTY_NEW_VALUE) {
		return true;
	}
	bool incr_start = false;
	if (!read_data(bridge, &incr_start)) {
		transfer_done(bridge);
		maybe_finish(bridge);
		return true;
	}
	write_out(bridge);
	return true;
}

/* -- the X side ---------------------------------------------------------- */

/* The X source's types, from XdndEnter or its XdndTypeList. */
static int read_types(struct xdnd_bridge *bridge, const uint32_t *data,
		xcb_atom_t types[MAX_TYPES]) {
	int n = 0;
	if (!(data[1] & 1)) {
		for (int i = 2; i < 5; i++) {
			if (data[i] != XCB_ATOM_NONE) {
				types[n++] = data[i];
			}
		}
		return n;
	}
	xcb_get_property_reply_t *reply = xcb_get_property_reply(bridge->x11->conn,
		xcb_get_property(bridge->x11->conn, 0, bridge->x_source,
			bridge->atoms[A_XDND_TYPE_LIST], XCB_ATOM_ATOM, 0, MAX_TYPES), NULL);
	xwm_x11_schedule_drain(bridge->x11);
	if (reply && reply->format == 32) {
		int len = xcb_get_property_value_length(reply) / 4;
		const xcb_atom_t *atoms = xcb_get_property_value(reply);
		for (int i = 0; i < len && n < MAX_TYPES; i++) {
			types[n++] = atoms[i];
		}
	}
	free(reply);
	return n;
}

/* A Wayland data source offering what the X source has, as MIME types. */
static struct xdnd_source *source_create(struct xdnd_bridge *bridge,
		const xcb_atom_t *types, int n) {
	xcb_get_atom_name_cookie_t cookies[MAX_TYPES];
	for (int i = 0; i < n; i++) {
		cookies[i] = xcb_get_atom_name(bridge->x11->conn, types[i]);
	}
	struct xdnd_source *source = zalloc(sizeof(*source));
	wlr_data_source_init(&source->base, &source_impl);
	source->base.actions = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY;
	source->bridge = bridge;
	int offered = 0;
	for (int i = 0; i < n; i++) {
		xcb_get_atom_name_reply_t *reply =
			xcb_get_atom_name_reply(bridge->x11->conn, cookies[i], NULL);
		if (!reply) {
			continue;
		}
		char name[256];
		int len = xcb_get_atom_name_name_length(reply);
		len = len < (int)sizeof(name) - 1 ? len : (int)sizeof(name) - 1;
		memcpy(name, xcb_get_atom_name_name(reply), len);
		name[len] = '\0';
		free(reply);
		const char *mime = xdnd_mime_type_for_target(name);
		char **slot = mime ? wl_array_add(&source->base.mime_types, sizeof(*slot)) : NULL;
		if (slot) {
			*slot = xstrdup(mime);
			source->targets[offered++] = types[i];
		}
	}
	xwm_x11_schedule_drain(bridge->x11);
	if (offered == 0) {
		source->bridge = NULL;
		wlr_data_source_destroy(&source->base);
		return NULL;
	}
	return source;
}

static void handle_enter(struct xdnd_bridge *bridge, const uint32_t *data) {
	struct wlr_seat *wlr_seat = bridge->server->seat->wlr_seat;
	if (bridge->source || !bridge->origin || wlr_seat->pointer_state.button_count == 0) {
		return;
	}
	bridge->x_source = data[0];
	xcb_atom_t types[MAX_TYPES];
	int n = read_types(bridge, data, types);
	struct xdnd_source *source = source_create(bridge, types, n);
	struct wlr_seat_client *seat_client = wlr_seat_client_for_wl_client(wlr_seat,
		wl_resource_get_client(bridge->origin->resource));
	struct wlr_drag *drag = source && seat_client ?
		wlr_drag_create(seat_client, &source->base, NULL) : NULL;
	if (!drag) {
		if (source) {
			source->bridge = NULL;
			wlr_data_source_destroy(&source->base);
		}
		wlr_log(WLR_INFO, "X drag and drop: nothing a Wayland client can take");
		return;
	}
	bridge->source = source;
	wlr_log(WLR_DEBUG, "X drag and drop from 0x%x: %zu types", bridge->x_source,
		source->base.mime_types.size / sizeof(char *));
	xwm_start_drag_unbridged(bridge->server->xwm, drag, wlr_seat->pointer_state.grab_serial);
	/* The Wayland surface under the pointer hears of it at once. */
	seat_update_pointer_focus(bridge->server->seat, now_ms());
}

bool xdnd_bridge_client_message(struct xdnd_bridge *bridge,
		xcb_client_message_event_t *event) {
	if (!bridge || event->window != bridge->proxy || event->format != 32) {
		return false;
	}
	const uint32_t *data = event->data.data32;
	xcb_atom_t type = event->type;
	if (type == bridge->atoms[A_XDND_ENTER]) {
		struct wlr_cursor *cursor = seat_cursor(bridge->server->seat);
		bridge->x_root_x = (int)cursor->x;
		bridge->x_root_y = (int)cursor->y;
		handle_enter(bridge, data);
	} else if (data[0] != bridge->x_source || bridge->x_source == XCB_WINDOW_NONE) {
		return true; /* not from the drag we follow */
	} else if (type == bridge->atoms[A_XDND_POSITION]) {
		bridge->x_root_x = (int16_t)(data[2] >> 16);
		bridge->x_root_y = (int16_t)(data[2] & 0xffff);
		bridge->x_time = data[3];
		send_status(bridge, bridge->source != NULL || bridge->dropped);
	} else if (type == bridge->atoms[A_XDND_LEAVE]) {
		wlr_log(WLR_DEBUG, "X drag and drop: the X source left");
		reset(bridge);
	} else if (type == bridge->atoms[A_XDND_DROP]) {
		wlr_log(WLR_DEBUG, "X drag and drop: the X source dropped");
		bridge->x_time = data[2];
		bridge->x_dropped = true;
		maybe_finish(bridge);
	}
	return true;
}

/*
 * After each pointer motion: while a button pressed on an X window is held
 * over a Wayland surface and an X client drags, the proxy is where the X
 * source looks for a target. The X server learns of the motion from the
 * same event (the implicit grab sends it to Xwayland's surface).
 */
static void handle_pointer_moved(struct xdnd_bridge *bridge) {
	if (bridge->source || bridge->dropped || bridge->release_idle) {
		return; /* the Wayland drag runs, or is ending */
	}
	struct seat *seat = bridge->server->seat;
	struct wlr_seat_pointer_state *state = &seat->wlr_seat->pointer_state;
	struct wlr_cursor *cursor = seat_cursor(seat);
	bool want = false;
	if (state->button_count > 0 && state->focused_surface &&
			wlr_surface_is_xwayland_surface(state->focused_surface)) {
		double sx, sy;
		struct wlr_surface *under = seat_surface_at(seat, cursor->x, cursor->y, &sx, &sy);
		want = under && !wlr_surface_is_xwayland_surface(under);
	}
	if (want && !bridge->proxy_shown) {
		xcb_get_selection_owner_reply_t *owner = xcb_get_selection_owner_reply(
			bridge->x11->conn, xcb_get_selection_owner(bridge->x11->conn,
				bridge->atoms[A_XDND_SELECTION]), NULL);
		xwm_x11_schedule_drain(bridge->x11);
		want = owner && owner->owner != XCB_WINDOW_NONE;
		free(owner);
		if (want) {
			set_origin(bridge, state->focused_surface);
			bridge->origin_x = cursor->x - state->sx;
			bridge->origin_y = cursor->y - state->sy;
			bridge->button = state->grab_button;
			show_proxy(bridge, true);
		}
	} else if (!want && bridge->proxy_shown && bridge->x_source == XCB_WINDOW_NONE) {
		show_proxy(bridge, false);
	}
}

static void handle_cursor_motion(struct wl_listener *listener, void *data) {
	struct xdnd_bridge *bridge = wl_container_of(listener, bridge, cursor_motion);
	handle_pointer_moved(bridge);
}

static void handle_cursor_motion_absolute(struct wl_listener *listener, void *data) {
	struct xdnd_bridge *bridge =
		wl_container_of(listener, bridge, cursor_motion_absolute);
	handle_pointer_moved(bridge);
}

struct xdnd_bridge *xdnd_bridge_create(struct xwm_x11 *x11) {
	xcb_connection_t *conn = x11->conn;
	struct xdnd_bridge *bridge = zalloc(sizeof(*bridge));
	bridge->x11 = x11;
	bridge->server = x11->server;
	wl_list_init(&bridge->transfers);
	xcb_intern_atom_cookie_t cookies[A_COUNT];
	for (int i = 0; i < A_COUNT; i++) {
		cookies[i] = xcb_intern_atom(conn, 0, strlen(atom_names[i]), atom_names[i]);
	}
	for (int i = 0; i < A_COUNT; i++) {
		xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(conn, cookies[i], NULL);
		bridge->atoms[i] = reply ? reply->atom : XCB_ATOM_NONE;
		free(reply);
	}
	/* Invisible, unmanaged, and XDND-aware: a target the X source can find. */
	bridge->proxy = xcb_generate_id(conn);
	uint32_t values[] = { 1, XCB_EVENT_MASK_PROPERTY_CHANGE };
	xcb_create_window(conn, XCB_COPY_FROM_PARENT, bridge->proxy, x11->root, 0, 0, 1, 1,
		0, XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT,
		XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK, values);
	uint32_t version = XDND_VERSION;
	xcb_change_property(conn, XCB_PROP_MODE_REPLACE, bridge->proxy,
		bridge->atoms[A_XDND_AWARE], XCB_ATOM_ATOM, 32, 1, &version);
	xwm_x11_flush(bridge->x11);

	bridge->origin_destroy.notify = handle_origin_destroy;
	struct wlr_cursor *cursor = seat_cursor(x11->server->seat);
	bridge->cursor_motion.notify = handle_cursor_motion;
	wl_signal_add(&cursor->events.motion, &bridge->cursor_motion);
	bridge->cursor_motion_absolute.notify = handle_cursor_motion_absolute;
	wl_signal_add(&cursor->events.motion_absolute, &bridge->cursor_motion_absolute);
	return bridge;
}

void xdnd_bridge_destroy(struct xdnd_bridge *bridge) {
	if (!bridge) {
		return;
	}
	reset(bridge);
	wl_list_remove(&bridge->cursor_motion.link);
	wl_list_remove(&bridge->cursor_motion_absolute.link);
	xcb_destroy_window(bridge->x11->conn, bridge->proxy);
	xwm_x11_flush(bridge->x11);
	free(bridge);
}
