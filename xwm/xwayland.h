#ifndef ORIEL_XWM_XWAYLAND_H
#define ORIEL_XWM_XWAYLAND_H

/* Xwayland's lifecycle: start (lazy or eager), restart after a crash. */

#include <stdbool.h>

struct server;
struct wlr_xwayland_surface;

struct xwm *xwm_create(struct server *server, bool lazy);
void xwm_destroy(struct xwm *xwm);
/* ":N"; stays the same across restarts as long as the number is free. */
const char *xwm_display_name(struct xwm *xwm);
/* oriel's own X connection (xwm/x11.h), or NULL while Xwayland is not ready. */
struct xwm_x11 *xwm_get_x11(struct xwm *xwm);

/* Window types, one file each: managed views and override-redirect windows. */
void xwayland_view_create(struct server *server, struct wlr_xwayland_surface *xsurface);
void xwayland_unmanaged_create(struct server *server,
	struct wlr_xwayland_surface *xsurface);

#endif
