#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>
#include "compositor/server.h"
#include "compositor/util.h"
#include "xwm/x11.h"

static const char *const atom_names[ATOM_COUNT] = {
	[ATOM_UTF8_STRING] = "UTF8_STRING",
	[ATOM_NET_SUPPORTED] = "_NET_SUPPORTED",
	[ATOM_NET_SUPPORTING_WM_CHECK] = "_NET_SUPPORTING_WM_CHECK",
	[ATOM_NET_WM_NAME] = "_NET_WM_NAME",
	[ATOM_NET_NUMBER_OF_DESKTOPS] = "_NET_NUMBER_OF_DESKTOPS",
	[ATOM_NET_CURRENT_DESKTOP] = "_NET_CURRENT_DESKTOP",
	[ATOM_NET_DESKTOP_GEOMETRY] = "_NET_DESKTOP_GEOMETRY",
	[ATOM_NET_DESKTOP_VIEWPORT] = "_NET_DESKTOP_VIEWPORT",
	[ATOM_NET_WORKAREA] = "_NET_WORKAREA",
	[ATOM_NET_WM_DESKTOP] = "_NET_WM_DESKTOP",
	[ATOM_NET_WM_STATE] = "_NET_WM_STATE",
	[ATOM_NET_ACTIVE_WINDOW] = "_NET_ACTIVE_WINDOW",
	[ATOM_NET_WM_MOVERESIZE] = "_NET_WM_MOVERESIZE",
	[ATOM_NET_WM_STATE_FOCUSED] = "_NET_WM_STATE_FOCUSED",
	[ATOM_NET_WM_STATE_MODAL] = "_NET_WM_STATE_MODAL",
	[ATOM_NET_WM_STATE_FULLSCREEN] = "_NET_WM_STATE_FULLSCREEN",
	[ATOM_NET_WM_STATE_MAXIMIZED_VERT] = "_NET_WM_STATE_MAXIMIZED_VERT",
	[ATOM_NET_WM_STATE_MAXIMIZED_HORZ] = "_NET_WM_STATE_MAXIMIZED_HORZ",
	[ATOM_NET_WM_STATE_HIDDEN] = "_NET_WM_STATE_HIDDEN",
	[ATOM_NET_CLIENT_LIST] = "_NET_CLIENT_LIST",
	[ATOM_NET_CLIENT_LIST_STACKING] = "_NET_CLIENT_LIST_STACKING",
};

static bool intern_atoms(struct xwm_x11 *x11) {
	xcb_intern_atom_cookie_t cookies[ATOM_COUNT];
	for (int i = 0; i < ATOM_COUNT; i++) {
		cookies[i] = xcb_intern_atom(x11->conn, 0, strlen(atom_names[i]),
			atom_names[i]);
	}
	bool ok = true;
	for (int i = 0; i < ATOM_COUNT; i++) {
		xcb_intern_atom_reply_t *reply =
			xcb_intern_atom_reply(x11->conn, cookies[i], NULL);
		if (reply) {
			x11->atoms[i] = reply->atom;
			free(reply);
		} else {
			ok = false;
		}
	}
	return ok;
}

/* Errors of unchecked requests and events nobody asked for: dropped. */
static void drain_events(struct xwm_x11 *x11) {
	xcb_generic_event_t *event;
	while ((event = xcb_poll_for_event(x11->conn))) {
		if (event->response_type == 0) {
			xcb_generic_error_t *error = (xcb_generic_error_t *)event;
			wlr_log(WLR_DEBUG, "X error %u on request %u.%u", error->error_code,
				error->major_code, error->minor_code);
		}
		free(event);
	}
}

static int handle_x11_event(int fd, uint32_t mask, void *data) {
	struct xwm_x11 *x11 = data;
	if ((mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) ||
			xcb_connection_has_error(x11->conn)) {
		wlr_log(WLR_DEBUG, "oriel's X connection ended");
		wl_event_source_remove(x11->source);
		x11->source = NULL;
		return 0;
	}
	drain_events(x11);
	return 0;
}

static void handle_outputs_changed(struct wl_listener *listener, void *data) {
	struct xwm_x11 *x11 = wl_container_of(listener, x11, outputs_changed);
	ewmh_root_update_geometry(x11);
}

struct xwm_x11 *xwm_x11_connect(struct server *server, const char *display) {
	xcb_connection_t *conn = xcb_connect(display, NULL);
	if (xcb_connection_has_error(conn)) {
		wlr_log(WLR_ERROR, "oriel cannot connect to X display %s", display);
		xcb_disconnect(conn);
		return NULL;
	}
	struct xwm_x11 *x11 = zalloc(sizeof(*x11));
	x11->server = server;
	x11->conn = conn;
	x11->root = xcb_setup_roots_iterator(xcb_get_setup(conn)).data->root;
	if (!intern_atoms(x11)) {
		wlr_log(WLR_ERROR, "Cannot intern X atoms on %s", display);
		xcb_disconnect(conn);
		free(x11);
		return NULL;
	}
	x11->source = wl_event_loop_add_fd(server->loop, xcb_get_file_descriptor(conn),
		WL_EVENT_READABLE, handle_x11_event, x11);
	x11->outputs_changed.notify = handle_outputs_changed;
	wl_signal_add(&server->events_outputs_changed, &x11->outputs_changed);
	ewmh_root_init(x11);
	drain_events(x11);
	return x11;
}

void xwm_x11_disconnect(struct xwm_x11 *x11) {
	if (!x11) {
		return;
	}
	wl_list_remove(&x11->outputs_changed.link);
	if (x11->source) {
		wl_event_source_remove(x11->source);
	}
	xcb_disconnect(x11->conn);
	free(x11);
}

void xwm_x11_window_managed(struct xwm_x11 *x11, xcb_window_t window) {
	if (!x11) {
		return;
	}
	uint32_t desktop = 0;
	xcb_change_property(x11->conn, XCB_PROP_MODE_REPLACE, window,
		x11->atoms[ATOM_NET_WM_DESKTOP], XCB_ATOM_CARDINAL, 32, 1, &desktop);
	xcb_flush(x11->conn);
}

void xwm_x11_send_configure_notify(struct xwm_x11 *x11, xcb_window_t window,
		int x, int y, int width, int height) {
	if (!x11) {
		return;
	}
	xcb_configure_notify_event_t event = {
		.response_type = XCB_CONFIGURE_NOTIFY,
		.event = window,
		.window = window,
		.above_sibling = XCB_WINDOW_NONE,
		.x = x,
		.y = y,
		.width = width,
		.height = height,
		.border_width = 0,
		.override_redirect = 0,
	};
	xcb_send_event(x11->conn, 0, window, XCB_EVENT_MASK_STRUCTURE_NOTIFY,
		(const char *)&event);
	xcb_flush(x11->conn);
}

int xwm_x11_border_width(struct xwm_x11 *x11, xcb_window_t window) {
	if (!x11) {
		return 0;
	}
	xcb_get_geometry_reply_t *reply = xcb_get_geometry_reply(x11->conn,
		xcb_get_geometry(x11->conn, window), NULL);
	int border = reply ? reply->border_width : 0;
	free(reply);
	drain_events(x11);
	return border;
}
