/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_XWM_XWAYLAND_H
#define ORIEL_XWM_XWAYLAND_H

/* Xwayland's lifecycle: start (lazy or eager), restart after a crash. */

#include <stdbool.h>
#include <stdint.h>

struct server;
struct wlr_xwayland_surface;

/*
 * first_display: the first X display number to try (x_display.h), or -1
 * for wlroots' own choice among :0-:32.
 */
struct xwm *xwm_create(struct server *server, bool lazy, int first_display);
void xwm_destroy(struct xwm *xwm);
/* ":N"; stays the same across restarts as long as the number is free. */
const char *xwm_display_name(struct xwm *xwm);
/* oriel's own X connection (xwm/x11.h), or NULL while Xwayland is not ready. */
struct xwm_x11 *xwm_get_x11(struct xwm *xwm);
/*
 * Starts a Wayland drag that wlroots' XWM does not take for a Wayland-to-X
 * drag (it would claim XdndSelection from the X source of an X-to-Wayland
 * drag, xdnd_bridge.h).
 */
struct wlr_drag;
void xwm_start_drag_unbridged(struct xwm *xwm, struct wlr_drag *drag, uint32_t serial);

/* Window types, one file each: managed views and override-redirect windows. */
void xwayland_view_create(struct server *server, struct wlr_xwayland_surface *xsurface);
void xwayland_unmanaged_create(struct server *server,
	struct wlr_xwayland_surface *xsurface);

/* For oriel's X connection (xwm/ewmh_client.c). */
struct view;
struct ewmh_moveresize;
/* The managed view of an X window, mapped or not, or NULL. */
struct view *xwayland_view_find(struct server *server, uint32_t window);
/* The X window of a view, or 0 when it is not an X window. */
uint32_t xwayland_view_window(struct view *view);
bool xwayland_view_will_decorate(struct view *view);
void xwayland_view_moveresize(struct view *view, const struct ewmh_moveresize *request);
void xwayland_view_ponged(struct view *view);
void xwayland_view_update_strut(struct view *view);
/* _NET_WM_ICON, read again, in the title bar. */
void xwayland_view_update_icon(struct view *view);
/*
 * The axes (enum placement_axes) wlroots' XWM holds maximized for the
 * window: what the client asked for last, until the view answers.
 */
unsigned xwayland_view_requested_axes(struct view *view);
/* The window's EWMH_STATE_* bits (xwm/ewmh_state.c keeps them). */
uint32_t *xwayland_view_states(struct view *view);
/* The X surface of a view, or NULL when it is not an X window. */
struct wlr_xwayland_surface *xwayland_view_xsurface(struct view *view);
/* The view's _NET_WM_SYNC_REQUEST state, or NULL when it is not an X window. */
struct sync_request *xwayland_view_sync(struct view *view);

/* xwayland_stacking.c: X's stacking order follows oriel's. */
void xwayland_stacking_sync(struct server *server);

#endif
