#ifndef ORIEL_XWM_X11_H
#define ORIEL_XWM_X11_H

/*
 * oriel's own X connection, next to wlroots' XWM (which owns WM_S0 and
 * exposes no xcb handle). Used for the EWMH/ICCCM properties and events
 * that wlroots 0.15 does not provide. Opened when Xwayland is ready and
 * closed before Xwayland stops.
 */

#include <stdint.h>
#include <wayland-server-core.h>
#include <xcb/xcb.h>

struct server;

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
	ATOM_COUNT,
};

struct xwm_x11 {
	struct server *server;
	xcb_connection_t *conn;
	xcb_window_t root;
	xcb_window_t check_window; /* ours, when wlroots had none */
	xcb_atom_t atoms[ATOM_COUNT];
	struct wl_event_source *source;
	struct wl_listener outputs_changed;
};

/* Connects to display and sets the root window properties; NULL on failure. */
struct xwm_x11 *xwm_x11_connect(struct server *server, const char *display);
void xwm_x11_disconnect(struct xwm_x11 *x11);

/* ewmh_root.c: the root window's EWMH properties. */
void ewmh_root_init(struct xwm_x11 *x11);
/* Output layout or usable areas changed. */
void ewmh_root_update_geometry(struct xwm_x11 *x11);

/* Per managed window. */
void xwm_x11_window_managed(struct xwm_x11 *x11, xcb_window_t window);
/* The window's X border width (what the client asked for), or 0. */
int xwm_x11_border_width(struct xwm_x11 *x11, xcb_window_t window);
/* ICCCM 4.1.5: tells the client where it is, in root coordinates. */
void xwm_x11_send_configure_notify(struct xwm_x11 *x11, xcb_window_t window,
	int x, int y, int width, int height);

#endif
