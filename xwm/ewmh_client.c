/* SPDX-License-Identifier: MIT */
/*
 * EWMH requests that clients send to the root window, as oriel's own X
 * connection sees them (wlroots' XWM gets them too, and handles the
 * ones it knows: _NET_WM_STATE, _NET_WM_MOVERESIZE, WM_CHANGE_STATE).
 */
#include <stdlib.h>
#include <wlr/util/log.h>
#include "compositor/keyboard_moveresize.h"
#include "compositor/options.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"
#include "xwm/icccm_hints.h"
#include "xwm/x11.h"
#include "xwm/xwayland.h"

#define MOVERESIZE_SIZE_KEYBOARD 9
#define MOVERESIZE_MOVE_KEYBOARD 10
#define MOVERESIZE_CANCEL 11
#define STATE_REMOVE 0
#define STATE_ADD 1
#define STATE_TOGGLE 2

/* The window's _NET_WM_USER_TIME, when it has one. */
static bool user_time(struct xwm_x11 *x11, xcb_window_t window, uint32_t *time) {
	xcb_get_property_reply_t *reply = xcb_get_property_reply(x11->conn,
		xcb_get_property(x11->conn, 0, window, x11->atoms[ATOM_NET_WM_USER_TIME],
			XCB_ATOM_CARDINAL, 0, 1), NULL);
	bool ok = reply && reply->type == XCB_ATOM_CARDINAL && reply->format == 32 &&
		xcb_get_property_value_length(reply) >= 4;
	if (ok) {
		*time = *(uint32_t *)xcb_get_property_value(reply);
	}
	free(reply);
	return ok;
}

/* Focus-stealing prevention: a background app gets attention, not focus. */
static void handle_activate(struct xwm_x11 *x11, struct view *view,
		const uint32_t *data) {
	uint32_t source = data[0], timestamp = data[1];
	struct view *focused = view_focused(x11->server);
	if (focused == view) {
		view_focus(view);
		return;
	}
	uint32_t time = 0;
	bool has_time = false;
	xcb_window_t focused_window = focused ? xwayland_view_window(focused) : XCB_WINDOW_NONE;
	if (focused_window != XCB_WINDOW_NONE) {
		has_time = user_time(x11, focused_window, &time);
	}
	if (ewmh_activation_allowed(source, timestamp, focused != NULL, has_time, time)) {
		view_focus(view);
	} else {
		wlr_log(WLR_DEBUG, "Activation of view %llu refused (source %u, time %u, "
			"focused time %u): attention instead", (unsigned long long)view->id,
			source, timestamp, time);
		view_request_attention(view, true);
	}
}

static void handle_state(struct xwm_x11 *x11, struct view *view, const uint32_t *data) {
	xcb_atom_t attention = x11->atoms[ATOM_NET_WM_STATE_DEMANDS_ATTENTION];
	if (data[1] != attention && data[2] != attention) {
		return;
	}
	bool on = data[0] == STATE_ADD ||
		(data[0] == STATE_TOGGLE && !view->attention_requested);
	if (data[0] > STATE_TOGGLE) {
		return;
	}
	view_request_attention(view, on);
}

/*
 * Asked before mapping: what the window will get. This connection may hear
 * of the window before wlroots' XWM made its surface.
 */
static void answer_frame_extents(struct xwm_x11 *x11, xcb_window_t window,
		struct view *view) {
	bool decorated;
	if (view) {
		decorated = xwayland_view_will_decorate(view);
	} else {
		struct ewmh_type_policy policy;
		ewmh_window_type_policy(xwm_x11_window_type(x11, window), &policy);
		decorated = policy.decorated && !x11->server->options->kiosk;
	}
	xwm_x11_set_frame_extents(x11, window, decorated);
}

/*
 * The first X client of a lazy session starts Xwayland, and its requests
 * can reach the root before this connection listens there. Top-level
 * windows that exist by then get their frame extents unasked.
 */
void ewmh_client_answer_early_requests(struct xwm_x11 *x11) {
	xcb_query_tree_reply_t *tree = xcb_query_tree_reply(x11->conn,
		xcb_query_tree(x11->conn, x11->root), NULL);
	if (!tree) {
		return;
	}
	xcb_window_t *children = xcb_query_tree_children(tree);
	int n = xcb_query_tree_children_length(tree);
	for (int i = 0; i < n; i++) {
		xcb_get_window_attributes_reply_t *attributes = xcb_get_window_attributes_reply(
			x11->conn, xcb_get_window_attributes(x11->conn, children[i]), NULL);
		if (attributes && !attributes->override_redirect) {
			answer_frame_extents(x11, children[i],
				xwayland_view_find(x11->server, children[i]));
		}
		free(attributes);
	}
	free(tree);
}

void ewmh_client_message(struct xwm_x11 *x11, xcb_client_message_event_t *event) {
	if (event->format != 32) {
		return;
	}
	const uint32_t *data = event->data.data32;
	struct server *server = x11->server;
	if (event->type == x11->atoms[ATOM_WM_PROTOCOLS]) {
		/* A pong: the client answers pings on the root. */
		if (data[0] == x11->atoms[ATOM_NET_WM_PING]) {
			struct view *view = xwayland_view_find(server, data[2]);
			if (view) {
				xwayland_view_ponged(view);
			}
		}
		return;
	}
	struct view *view = xwayland_view_find(server, event->window);
	if (event->type == x11->atoms[ATOM_NET_REQUEST_FRAME_EXTENTS]) {
		answer_frame_extents(x11, event->window, view);
		return;
	}
	if (!view || !view->mapped) {
		return;
	} else if (event->type == x11->atoms[ATOM_NET_CLOSE_WINDOW]) {
		view_close(view);
	} else if (event->type == x11->atoms[ATOM_NET_MOVERESIZE_WINDOW]) {
		struct ewmh_moveresize request;
		ewmh_decode_moveresize_window(data, &request);
		xwayland_view_moveresize(view, &request);
	} else if (event->type == x11->atoms[ATOM_NET_WM_MOVERESIZE]) {
		/* wlroots' XWM starts the pointer ones; the keyboard ones are oriel's. */
		if (data[2] == MOVERESIZE_CANCEL) {
			seat_view_gone(server->seat, view);
		} else if (data[2] == MOVERESIZE_SIZE_KEYBOARD ||
				data[2] == MOVERESIZE_MOVE_KEYBOARD) {
			keyboard_moveresize_begin(server->seat, view,
				data[2] == MOVERESIZE_SIZE_KEYBOARD);
		}
	} else if (event->type == x11->atoms[ATOM_NET_ACTIVE_WINDOW]) {
		handle_activate(x11, view, data);
	} else if (event->type == x11->atoms[ATOM_NET_WM_STATE]) {
		handle_state(x11, view, data);
		ewmh_state_request(x11, view, data);
	} else if (event->type == x11->atoms[ATOM_NET_WM_DESKTOP]) {
		ewmh_desktop_request(x11, view, data);
	}
}

void ewmh_property_notify(struct xwm_x11 *x11, xcb_property_notify_event_t *event) {
	if (event->window == x11->root) {
		if (event->atom == x11->atoms[ATOM_NET_CLIENT_LIST]) {
			ewmh_root_client_list_changed(x11);
		}
		return;
	}
	if (event->atom == x11->atoms[ATOM_NET_WM_STATE]) {
		struct view *view = xwayland_view_find(x11->server, event->window);
		if (view) {
			ewmh_state_property_changed(x11, view);
		}
		return;
	}
	if (event->atom == x11->atoms[ATOM_NET_WM_ICON]) {
		struct view *view = xwayland_view_find(x11->server, event->window);
		if (view) {
			xwayland_view_update_icon(view);
		}
		return;
	}
	if (event->atom != x11->atoms[ATOM_NET_WM_STRUT] &&
			event->atom != x11->atoms[ATOM_NET_WM_STRUT_PARTIAL]) {
		return;
	}
	struct view *view = xwayland_view_find(x11->server, event->window);
	if (view) {
		xwayland_view_update_strut(view);
	}
}
