/* SPDX-License-Identifier: MIT */
/*
 * X's stacking order follows oriel's (server.views), so that
 * _NET_CLIENT_LIST_STACKING and XQueryTree tell clients what the screen
 * shows, bands (ABOVE/BELOW) included. wlroots' XWM raises a window when
 * it gets focus; oriel's order is put back after each change.
 */
#include <wlr/xwayland.h>
#include "compositor/server.h"
#include "compositor/view.h"
#include "xwm/xwayland.h"

void xwayland_stacking_sync(struct server *server) {
	struct view *view;
	/* Bottom first, each raised to the top: the last one ends on top. */
	wl_list_for_each_reverse(view, &server->views, link) {
		struct wlr_xwayland_surface *xsurface = xwayland_view_xsurface(view);
		if (xsurface && view->mapped) {
			wlr_xwayland_surface_restack(xsurface, NULL, XCB_STACK_MODE_ABOVE);
		}
	}
}
