/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/decoration.h"
#include "xwm/ewmh_icon.h"
#include "xwm/icccm_hints.h"
#include "xwm/sync_request.h"
#include "xwm/x11.h"
#include "xwm/xdnd_bridge.h"
#include "xwm/xwayland.h"

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
	[ATOM_NET_MOVERESIZE_WINDOW] = "_NET_MOVERESIZE_WINDOW",
	[ATOM_NET_CLOSE_WINDOW] = "_NET_CLOSE_WINDOW",
	[ATOM_NET_REQUEST_FRAME_EXTENTS] = "_NET_REQUEST_FRAME_EXTENTS",
	[ATOM_NET_FRAME_EXTENTS] = "_NET_FRAME_EXTENTS",
	[ATOM_NET_WM_ALLOWED_ACTIONS] = "_NET_WM_ALLOWED_ACTIONS",
	[ATOM_NET_WM_USER_TIME] = "_NET_WM_USER_TIME",
	[ATOM_NET_WM_STATE_DEMANDS_ATTENTION] = "_NET_WM_STATE_DEMANDS_ATTENTION",
	[ATOM_NET_WM_STATE_ABOVE] = "_NET_WM_STATE_ABOVE",
	[ATOM_NET_WM_STATE_BELOW] = "_NET_WM_STATE_BELOW",
	[ATOM_NET_WM_STATE_STICKY] = "_NET_WM_STATE_STICKY",
	[ATOM_NET_WM_STATE_SKIP_TASKBAR] = "_NET_WM_STATE_SKIP_TASKBAR",
	[ATOM_NET_WM_STATE_SKIP_PAGER] = "_NET_WM_STATE_SKIP_PAGER",
	[ATOM_NET_WM_STRUT] = "_NET_WM_STRUT",
	[ATOM_NET_WM_STRUT_PARTIAL] = "_NET_WM_STRUT_PARTIAL",
	[ATOM_NET_WM_WINDOW_TYPE] = "_NET_WM_WINDOW_TYPE",
	[ATOM_NET_WM_PING] = "_NET_WM_PING",
	[ATOM_NET_WM_PID] = "_NET_WM_PID",
	[ATOM_NET_WM_ICON] = "_NET_WM_ICON",
	[ATOM_NET_WM_SYNC_REQUEST] = "_NET_WM_SYNC_REQUEST",
	[ATOM_WM_PROTOCOLS] = "WM_PROTOCOLS",
	[ATOM_WM_TAKE_FOCUS] = "WM_TAKE_FOCUS",
	[ATOM_TYPE_NORMAL] = "_NET_WM_WINDOW_TYPE_NORMAL",
	[ATOM_TYPE_DIALOG] = "_NET_WM_WINDOW_TYPE_DIALOG",
	[ATOM_TYPE_UTILITY] = "_NET_WM_WINDOW_TYPE_UTILITY",
	[ATOM_TYPE_SPLASH] = "_NET_WM_WINDOW_TYPE_SPLASH",
	[ATOM_TYPE_NOTIFICATION] = "_NET_WM_WINDOW_TYPE_NOTIFICATION",
	[ATOM_TYPE_DOCK] = "_NET_WM_WINDOW_TYPE_DOCK",
	[ATOM_TYPE_MENU] = "_NET_WM_WINDOW_TYPE_MENU",
	[ATOM_TYPE_POPUP_MENU] = "_NET_WM_WINDOW_TYPE_POPUP_MENU",
	[ATOM_TYPE_DROPDOWN_MENU] = "_NET_WM_WINDOW_TYPE_DROPDOWN_MENU",
	[ATOM_TYPE_TOOLTIP] = "_NET_WM_WINDOW_TYPE_TOOLTIP",
	[ATOM_TYPE_COMBO] = "_NET_WM_WINDOW_TYPE_COMBO",
	[ATOM_TYPE_TOOLBAR] = "_NET_WM_WINDOW_TYPE_TOOLBAR",
	[ATOM_TYPE_DESKTOP] = "_NET_WM_WINDOW_TYPE_DESKTOP",
	[ATOM_ACTION_MOVE] = "_NET_WM_ACTION_MOVE",
	[ATOM_ACTION_RESIZE] = "_NET_WM_ACTION_RESIZE",
	[ATOM_ACTION_MINIMIZE] = "_NET_WM_ACTION_MINIMIZE",
	[ATOM_ACTION_MAXIMIZE_HORZ] = "_NET_WM_ACTION_MAXIMIZE_HORZ",
	[ATOM_ACTION_MAXIMIZE_VERT] = "_NET_WM_ACTION_MAXIMIZE_VERT",
	[ATOM_ACTION_FULLSCREEN] = "_NET_WM_ACTION_FULLSCREEN",
	[ATOM_ACTION_CLOSE] = "_NET_WM_ACTION_CLOSE",
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
		switch (event->response_type & 0x7f) {
		case 0: {
			xcb_generic_error_t *error = (xcb_generic_error_t *)event;
			wlr_log(WLR_DEBUG, "X error %u on request %u.%u", error->error_code,
				error->major_code, error->minor_code);
			break;
		}
		case XCB_CLIENT_MESSAGE:
			if (!xdnd_bridge_client_message(x11->xdnd,
					(xcb_client_message_event_t *)event)) {
				ewmh_client_message(x11, (xcb_client_message_event_t *)event);
			}
			break;
		case XCB_PROPERTY_NOTIFY:
			if (!xdnd_bridge_property_notify(x11->xdnd,
					(xcb_property_notify_event_t *)event)) {
				ewmh_property_notify(x11, (xcb_property_notify_event_t *)event);
			}
			break;
		case XCB_SELECTION_NOTIFY:
			xdnd_bridge_selection_notify(x11->xdnd, (xcb_selection_notify_event_t *)event);
			break;
		default:
			if (x11->has_sync && (event->response_type & 0x7f) ==
					x11->sync_event_base + XCB_SYNC_ALARM_NOTIFY) {
				sync_request_alarm_notify(x11,
					(xcb_sync_alarm_notify_event_t *)event);
			}
			break;
		}
		free(event);
	}
}

static void handle_drain_idle(void *data) {
	struct xwm_x11 *x11 = data;
	x11->drain_idle = NULL;
	drain_events(x11);
}

/* After a reply was awaited: events it queued would not wake the fd. */
void xwm_x11_schedule_drain(struct xwm_x11 *x11) {
	if (!x11->drain_idle) {
		x11->drain_idle = wl_event_loop_add_idle(x11->server->loop,
			handle_drain_idle, x11);
	}
}

void xwm_x11_flush(struct xwm_x11 *x11) {
	xcb_flush(x11->conn);
	xwm_x11_schedule_drain(x11);
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

static void handle_stacking_changed(struct wl_listener *listener, void *data) {
	struct xwm_x11 *x11 = wl_container_of(listener, x11, stacking_changed);
	xwayland_stacking_sync(x11->server);
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
	x11->stacking_changed.notify = handle_stacking_changed;
	wl_signal_add(&server->events_stacking_changed, &x11->stacking_changed);
	/*
	 * Client messages to the root (EWMH requests) reach every listener;
	 * property changes tell when wlroots' XWM rewrote _NET_CLIENT_LIST.
	 */
	uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY | XCB_EVENT_MASK_PROPERTY_CHANGE;
	xcb_change_window_attributes(conn, x11->root, XCB_CW_EVENT_MASK, &mask);
	sync_request_init_connection(x11);
	ewmh_root_init(x11);
	x11->xdnd = xdnd_bridge_create(x11);
	ewmh_client_answer_early_requests(x11);
	drain_events(x11);
	return x11;
}

void xwm_x11_disconnect(struct xwm_x11 *x11) {
	if (!x11) {
		return;
	}
	xdnd_bridge_destroy(x11->xdnd);
	wl_list_remove(&x11->outputs_changed.link);
	wl_list_remove(&x11->stacking_changed.link);
	if (x11->drain_idle) {
		wl_event_source_remove(x11->drain_idle);
	}
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
	/* Struts and attention may change while mapped. */
	uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
	xcb_change_window_attributes(x11->conn, window, XCB_CW_EVENT_MASK, &mask);
	xwm_x11_flush(x11);
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
	xwm_x11_flush(x11);
}

int xwm_x11_border_width(struct xwm_x11 *x11, xcb_window_t window) {
	if (!x11) {
		return 0;
	}
	xcb_get_geometry_reply_t *reply = xcb_get_geometry_reply(x11->conn,
		xcb_get_geometry(x11->conn, window), NULL);
	int border = reply ? reply->border_width : 0;
	free(reply);
	xwm_x11_schedule_drain(x11);
	return border;
}

static xcb_get_property_reply_t *get_property(struct xwm_x11 *x11, xcb_window_t window,
		enum xwm_atom atom, xcb_atom_t type, uint32_t max_words) {
	xcb_get_property_reply_t *reply = xcb_get_property_reply(x11->conn,
		xcb_get_property(x11->conn, 0, window, x11->atoms[atom], type, 0, max_words),
		NULL);
	xwm_x11_schedule_drain(x11);
	if (reply && (reply->type != type || reply->format != 32)) {
		free(reply);
		return NULL;
	}
	return reply;
}

int xwm_x11_window_type(struct xwm_x11 *x11, xcb_window_t window) {
	if (!x11) {
		return EWMH_TYPE_NORMAL;
	}
	xcb_get_property_reply_t *reply = get_property(x11, window,
		ATOM_NET_WM_WINDOW_TYPE, XCB_ATOM_ATOM, 32);
	if (!reply) {
		return EWMH_TYPE_NORMAL;
	}
	static const struct {
		enum xwm_atom atom;
		enum ewmh_window_type type;
	} map[] = {
		{ATOM_TYPE_NORMAL, EWMH_TYPE_NORMAL},
		{ATOM_TYPE_DIALOG, EWMH_TYPE_DIALOG},
		{ATOM_TYPE_UTILITY, EWMH_TYPE_UTILITY},
		{ATOM_TYPE_SPLASH, EWMH_TYPE_SPLASH},
		{ATOM_TYPE_NOTIFICATION, EWMH_TYPE_NOTIFICATION},
		{ATOM_TYPE_DOCK, EWMH_TYPE_DOCK},
		{ATOM_TYPE_MENU, EWMH_TYPE_MENU},
		{ATOM_TYPE_POPUP_MENU, EWMH_TYPE_MENU},
		{ATOM_TYPE_DROPDOWN_MENU, EWMH_TYPE_MENU},
		{ATOM_TYPE_TOOLTIP, EWMH_TYPE_TOOLTIP},
		{ATOM_TYPE_COMBO, EWMH_TYPE_COMBO},
		{ATOM_TYPE_TOOLBAR, EWMH_TYPE_TOOLBAR},
		{ATOM_TYPE_DESKTOP, EWMH_TYPE_DESKTOP},
	};
	/* EWMH: the first type in the list that the WM knows wins. */
	const xcb_atom_t *atoms = xcb_get_property_value(reply);
	int n = xcb_get_property_value_length(reply) / 4;
	int type = EWMH_TYPE_NORMAL;
	for (int i = 0; i < n; i++) {
		for (size_t j = 0; j < sizeof(map) / sizeof(map[0]); j++) {
			if (atoms[i] == x11->atoms[map[j].atom]) {
				type = map[j].type;
				goto done;
			}
		}
	}
done:
	free(reply);
	return type;
}

bool xwm_x11_read_strut(struct xwm_x11 *x11, xcb_window_t window,
		struct ewmh_strut *strut) {
	if (!x11) {
		return false;
	}
	/* EWMH: _NET_WM_STRUT_PARTIAL wins over _NET_WM_STRUT. */
	xcb_get_property_reply_t *reply = get_property(x11, window,
		ATOM_NET_WM_STRUT_PARTIAL, XCB_ATOM_CARDINAL, 12);
	if (!reply || xcb_get_property_value_length(reply) < 48) {
		free(reply);
		reply = get_property(x11, window, ATOM_NET_WM_STRUT, XCB_ATOM_CARDINAL, 4);
	}
	if (!reply) {
		return false;
	}
	const xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(x11->conn)).data;
	bool ok = ewmh_decode_strut(xcb_get_property_value(reply),
		xcb_get_property_value_length(reply) / 4, screen->width_in_pixels,
		screen->height_in_pixels, strut);
	free(reply);
	return ok;
}

/* Enough for a 1024x1024 icon; the rest of a larger property is not read. */
#define ICON_MAX_WORDS (2 + EWMH_ICON_MAX_SIDE * EWMH_ICON_MAX_SIDE)

bool xwm_x11_read_icon(struct xwm_x11 *x11, xcb_window_t window, uint32_t size,
		uint32_t *pixels) {
	if (!x11) {
		return false;
	}
	xcb_get_property_reply_t *reply = get_property(x11, window, ATOM_NET_WM_ICON,
		XCB_ATOM_CARDINAL, ICON_MAX_WORDS);
	if (!reply) {
		return false;
	}
	struct ewmh_icon icon;
	bool ok = ewmh_icon_choose(xcb_get_property_value(reply),
		(size_t)xcb_get_property_value_length(reply) / 4, size, &icon);
	if (ok) {
		ewmh_icon_scale(&icon, size, pixels);
	} else if (xcb_get_property_value_length(reply) > 0) {
		wlr_log(WLR_INFO, "X window 0x%x: ignoring a malformed _NET_WM_ICON", window);
	}
	free(reply);
	return ok;
}

bool xwm_x11_client_is_local(struct xwm_x11 *x11, xcb_window_t window) {
	if (!x11) {
		return false;
	}
	xcb_get_property_reply_t *reply = xcb_get_property_reply(x11->conn,
		xcb_get_property(x11->conn, 0, window, XCB_ATOM_WM_CLIENT_MACHINE,
			XCB_GET_PROPERTY_TYPE_ANY, 0, 64), NULL);
	xwm_x11_schedule_drain(x11);
	if (!reply || reply->type == XCB_ATOM_NONE) {
		/*
		 * EWMH: _NET_WM_PID means something only with WM_CLIENT_MACHINE,
		 * and wlroots 0.15 takes the pid from that client property.
		 */
		free(reply);
		return false;
	}
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	bool local = reply->format == 8 && icccm_client_machine_is_local(
		xcb_get_property_value(reply), (size_t)xcb_get_property_value_length(reply),
		host);
	free(reply);
	return local;
}

void xwm_x11_kill_client(struct xwm_x11 *x11, xcb_window_t window) {
	if (x11) {
		xcb_kill_client(x11->conn, window);
		xwm_x11_flush(x11);
	}
}

void xwm_x11_set_frame_extents(struct xwm_x11 *x11, xcb_window_t window,
		bool decorated) {
	if (!x11) {
		return;
	}
	/* left, right, top, bottom (compositor/decoration.h) */
	uint32_t extents[4] = {0, 0, 0, 0};
	if (decorated) {
		extents[0] = extents[1] = extents[3] = DECORATION_BORDER;
		extents[2] = DECORATION_TITLE_HEIGHT + DECORATION_BORDER;
	}
	xcb_change_property(x11->conn, XCB_PROP_MODE_REPLACE, window,
		x11->atoms[ATOM_NET_FRAME_EXTENTS], XCB_ATOM_CARDINAL, 32, 4, extents);
	xwm_x11_flush(x11);
}

void xwm_x11_set_allowed_actions(struct xwm_x11 *x11, xcb_window_t window,
		bool resizable) {
	if (!x11) {
		return;
	}
	xcb_atom_t actions[7];
	uint32_t n = 0;
	actions[n++] = x11->atoms[ATOM_ACTION_MOVE];
	if (resizable) {
		actions[n++] = x11->atoms[ATOM_ACTION_RESIZE];
		actions[n++] = x11->atoms[ATOM_ACTION_MAXIMIZE_HORZ];
		actions[n++] = x11->atoms[ATOM_ACTION_MAXIMIZE_VERT];
	}
	actions[n++] = x11->atoms[ATOM_ACTION_MINIMIZE];
	actions[n++] = x11->atoms[ATOM_ACTION_FULLSCREEN];
	actions[n++] = x11->atoms[ATOM_ACTION_CLOSE];
	xcb_change_property(x11->conn, XCB_PROP_MODE_REPLACE, window,
		x11->atoms[ATOM_NET_WM_ALLOWED_ACTIONS], XCB_ATOM_ATOM, 32, n, actions);
	xwm_x11_flush(x11);
}

bool xwm_x11_has_protocol(const xcb_atom_t *protocols, size_t n, xcb_atom_t protocol) {
	for (size_t i = 0; protocols && i < n; i++) {
		if (protocols[i] == protocol) {
			return true;
		}
	}
	return false;
}
