/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_XWM_X11_H
#define ORIEL_XWM_X11_H

/*
 * oriel's own X connection, next to wlroots' XWM (which owns WM_S0 and
 * exposes no xcb handle). Used for the EWMH/ICCCM properties and events
 * that wlroots 0.15 does not provide. Opened when Xwayland is ready and
 * closed before Xwayland stops.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include <xcb/xcb.h>

struct server;
struct xdnd_bridge;

/* Everything here but UTF8_STRING and the WM_* atoms is in _NET_SUPPORTED. */
enum xwm_atom {
	ATOM_UTF8_STRING,
	ATOM_NET_SUPPORTED,
	ATOM_NET_SUPPORTING_WM_CHECK,
	ATOM_NET_WM_NAME,
	ATOM_NET_NUMBER_OF_DESKTOPS,
	ATOM_NET_CURRENT_DESKTOP,
	ATOM_NET_DESKTOP_GEOMETRY,
	ATOM_NET_DESKTOP_VIEWPORT,
	ATOM_NET_WORKAREA,
	ATOM_NET_WM_DESKTOP,
	/* Implemented by wlroots' XWM; listed again in _NET_SUPPORTED. */
	ATOM_NET_WM_STATE,
	ATOM_NET_ACTIVE_WINDOW,
	ATOM_NET_WM_MOVERESIZE,
	ATOM_NET_WM_STATE_FOCUSED,
	ATOM_NET_WM_STATE_MODAL,
	ATOM_NET_WM_STATE_FULLSCREEN,
	ATOM_NET_WM_STATE_MAXIMIZED_VERT,
	ATOM_NET_WM_STATE_MAXIMIZED_HORZ,
	ATOM_NET_WM_STATE_HIDDEN,
	ATOM_NET_CLIENT_LIST,
	ATOM_NET_CLIENT_LIST_STACKING,
	/* oriel's own. */
	ATOM_NET_MOVERESIZE_WINDOW,
	ATOM_NET_CLOSE_WINDOW,
	ATOM_NET_REQUEST_FRAME_EXTENTS,
	ATOM_NET_FRAME_EXTENTS,
	ATOM_NET_WM_ALLOWED_ACTIONS,
	ATOM_NET_WM_USER_TIME,
	ATOM_NET_WM_STATE_DEMANDS_ATTENTION,
	ATOM_NET_WM_STATE_ABOVE,
	ATOM_NET_WM_STATE_BELOW,
	ATOM_NET_WM_STATE_STICKY,
	ATOM_NET_WM_STATE_SKIP_TASKBAR,
	ATOM_NET_WM_STATE_SKIP_PAGER,
	ATOM_NET_WM_STRUT,
	ATOM_NET_WM_STRUT_PARTIAL,
	ATOM_NET_WM_WINDOW_TYPE,
	ATOM_NET_WM_PING,
	ATOM_NET_WM_PID,
	ATOM_NET_WM_ICON,
	/* In _NET_SUPPORTED only when the server has the SYNC extension. */
	ATOM_NET_WM_SYNC_REQUEST,
	ATOM_WM_PROTOCOLS,
	ATOM_WM_TAKE_FOCUS,
	/* _NET_WM_WINDOW_TYPE_* */
	ATOM_TYPE_NORMAL,
	ATOM_TYPE_DIALOG,
	ATOM_TYPE_UTILITY,
	ATOM_TYPE_SPLASH,
	ATOM_TYPE_NOTIFICATION,
	ATOM_TYPE_DOCK,
	ATOM_TYPE_MENU,
	ATOM_TYPE_POPUP_MENU,
	ATOM_TYPE_DROPDOWN_MENU,
	ATOM_TYPE_TOOLTIP,
	ATOM_TYPE_COMBO,
	ATOM_TYPE_TOOLBAR,
	ATOM_TYPE_DESKTOP,
	/* _NET_WM_ACTION_* */
	ATOM_ACTION_MOVE,
	ATOM_ACTION_RESIZE,
	ATOM_ACTION_MINIMIZE,
	ATOM_ACTION_MAXIMIZE_HORZ,
	ATOM_ACTION_MAXIMIZE_VERT,
	ATOM_ACTION_FULLSCREEN,
	ATOM_ACTION_CLOSE,
	ATOM_COUNT,
};

struct xwm_x11 {
	struct server *server;
	xcb_connection_t *conn;
	xcb_window_t root;
	xcb_window_t check_window; /* ours, when wlroots had none */
	xcb_atom_t atoms[ATOM_COUNT];
	struct wl_event_source *source;
	struct wl_event_source *drain_idle; /* events queued by a sync request */
	struct wl_listener outputs_changed;
	struct wl_listener stacking_changed;
	struct xdnd_bridge *xdnd; /* X to Wayland drag and drop */
	/* SYNC extension (xwm/sync_request.c). */
	bool has_sync;
	uint8_t sync_event_base;
	xcb_atom_t sync_counter_atom;
};

/* Connects to display and sets the root window properties; NULL on failure. */
struct xwm_x11 *xwm_x11_connect(struct server *server, const char *display);
void xwm_x11_disconnect(struct xwm_x11 *x11);

/* ewmh_root.c: the root window's EWMH properties. */
void ewmh_root_init(struct xwm_x11 *x11);
/* Output layout or usable areas changed. */
void ewmh_root_update_geometry(struct xwm_x11 *x11);
/* wlroots' XWM wrote _NET_CLIENT_LIST: put it in mapping order. */
void ewmh_root_client_list_changed(struct xwm_x11 *x11);

/* Per managed window, when it maps. */
void xwm_x11_window_managed(struct xwm_x11 *x11, xcb_window_t window);
/* The window's X border width (what the client asked for), or 0. */
int xwm_x11_border_width(struct xwm_x11 *x11, xcb_window_t window);
/* ICCCM 4.1.5: tells the client where it is, in root coordinates. */
void xwm_x11_send_configure_notify(struct xwm_x11 *x11, xcb_window_t window,
	int x, int y, int width, int height);

/* Window type and struts, read on oriel's connection. */
struct ewmh_strut;
int xwm_x11_window_type(struct xwm_x11 *x11, xcb_window_t window);
bool xwm_x11_read_strut(struct xwm_x11 *x11, xcb_window_t window,
	struct ewmh_strut *strut);
/*
 * The window's _NET_WM_ICON best fitting size x size, scaled into pixels
 * (size * size premultiplied ARGB); false without a usable icon.
 */
bool xwm_x11_read_icon(struct xwm_x11 *x11, xcb_window_t window, uint32_t size,
	uint32_t *pixels);
/*
 * Whether the window's client runs on this host (WM_CLIENT_MACHINE names
 * it, or is not set), so that its pid is one of ours.
 */
bool xwm_x11_client_is_local(struct xwm_x11 *x11, xcb_window_t window);
/* XKillClient: the server closes the connection of the window's client. */
void xwm_x11_kill_client(struct xwm_x11 *x11, xcb_window_t window);
/* _NET_FRAME_EXTENTS and _NET_WM_ALLOWED_ACTIONS on a managed window. */
void xwm_x11_set_frame_extents(struct xwm_x11 *x11, xcb_window_t window,
	bool decorated);
void xwm_x11_set_allowed_actions(struct xwm_x11 *x11, xcb_window_t window,
	bool resizable);
/* Whether the window lists protocol (an atom) in WM_PROTOCOLS. */
bool xwm_x11_has_protocol(const xcb_atom_t *protocols, size_t n, xcb_atom_t protocol);

/* Events queued while a reply was awaited outside the event handler. */
void xwm_x11_schedule_drain(struct xwm_x11 *x11);
/*
 * Sends what is queued. Writing may read what the X server sent meanwhile
 * into xcb's queue, where the fd no longer tells of it: a drain follows.
 */
void xwm_x11_flush(struct xwm_x11 *x11);

/*
 * ewmh_state.c: the _NET_WM_STATE atoms oriel implements beyond wlroots'
 * XWM (ABOVE, BELOW, STICKY, SKIP_TASKBAR, SKIP_PAGER), as EWMH_STATE_* bits.
 */
struct view;
/* The states the window asks for in its _NET_WM_STATE property. */
uint32_t ewmh_state_read(struct xwm_x11 *x11, xcb_window_t window);
/* Applies states to a mapped view and reflects them on its window. */
void ewmh_state_apply(struct xwm_x11 *x11, struct view *view, uint32_t states);
/* A _NET_WM_STATE or _NET_WM_DESKTOP client message for a mapped view. */
void ewmh_state_request(struct xwm_x11 *x11, struct view *view, const uint32_t *data);
void ewmh_desktop_request(struct xwm_x11 *x11, struct view *view, const uint32_t *data);
/* Someone (wlroots' XWM) rewrote the property: our atoms go back in. */
void ewmh_state_property_changed(struct xwm_x11 *x11, struct view *view);
/* The window asked to be mapped, and wlroots' XWM has not answered yet. */
void ewmh_state_map_requested(struct xwm_x11 *x11, struct view *view);
/* _NET_WM_STATE_DEMANDS_ATTENTION follows what the title bar shows. */
void ewmh_state_attention_changed(struct xwm_x11 *x11, struct view *view);

/* ewmh_client.c: client messages to the root and property changes. */
void ewmh_client_message(struct xwm_x11 *x11, xcb_client_message_event_t *event);
/* Answers what top-level windows asked before this connection listened. */
void ewmh_client_answer_early_requests(struct xwm_x11 *x11);
void ewmh_property_notify(struct xwm_x11 *x11, xcb_property_notify_event_t *event);

#endif
