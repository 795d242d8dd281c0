/* SPDX-License-Identifier: MIT */
#include <wlr/xwayland.h>
#include <xcb/xcb.h>
#include "xwm/icccm_focus.h"
#include "xwm/x11.h"

bool icccm_focus_accepts(struct wlr_xwayland_surface *xsurface) {
	return wlr_xwayland_icccm_input_model(xsurface) != WLR_ICCCM_INPUT_MODEL_NONE;
}

void icccm_focus_activated(struct xwm_x11 *x11, struct wlr_xwayland_surface *xsurface) {
	if (!x11 || wlr_xwayland_icccm_input_model(xsurface) != WLR_ICCCM_INPUT_MODEL_LOCAL) {
		return;
	}
	/* ICCCM 4.2.8: sent to the client that owns the window (empty event mask). */
	xcb_client_message_event_t event = {
		.response_type = XCB_CLIENT_MESSAGE,
		.format = 32,
		.window = xsurface->window_id,
		.type = x11->atoms[ATOM_WM_PROTOCOLS],
		.data.data32 = {x11->atoms[ATOM_WM_TAKE_FOCUS], XCB_CURRENT_TIME},
	};
	xcb_send_event(x11->conn, 0, xsurface->window_id, XCB_EVENT_MASK_NO_EVENT,
		(const char *)&event);
	xwm_x11_flush(x11);
}
