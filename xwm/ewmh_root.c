#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>
#include "compositor/output.h"
#include "compositor/server.h"
#include "xwm/x11.h"

#define WM_NAME "oriel"

/* What oriel and wlroots' XWM implement together; nothing more. */
static const enum xwm_atom supported[] = {
	ATOM_NET_SUPPORTED,
	ATOM_NET_SUPPORTING_WM_CHECK,
	ATOM_NET_WM_NAME,
	ATOM_NET_NUMBER_OF_DESKTOPS,
	ATOM_NET_CURRENT_DESKTOP,
	ATOM_NET_DESKTOP_GEOMETRY,
	ATOM_NET_DESKTOP_VIEWPORT,
	ATOM_NET_WORKAREA,
	ATOM_NET_WM_DESKTOP,
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
	ATOM_NET_MOVERESIZE_WINDOW,
	ATOM_NET_CLOSE_WINDOW,
	ATOM_NET_REQUEST_FRAME_EXTENTS,
	ATOM_NET_FRAME_EXTENTS,
	ATOM_NET_WM_ALLOWED_ACTIONS,
	ATOM_NET_WM_USER_TIME,
	ATOM_NET_WM_STATE_DEMANDS_ATTENTION,
	ATOM_NET_WM_STRUT,
	ATOM_NET_WM_STRUT_PARTIAL,
	ATOM_NET_WM_WINDOW_TYPE,
	ATOM_NET_WM_PING,
	ATOM_NET_WM_PID,
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
	ATOM_ACTION_MOVE,
	ATOM_ACTION_RESIZE,
	ATOM_ACTION_MINIMIZE,
	ATOM_ACTION_MAXIMIZE_HORZ,
	ATOM_ACTION_MAXIMIZE_VERT,
	ATOM_ACTION_FULLSCREEN,
	ATOM_ACTION_CLOSE,
};

static void set_cardinals(struct xwm_x11 *x11, enum xwm_atom atom,
		const uint32_t *values, uint32_t n) {
	xcb_change_property(x11->conn, XCB_PROP_MODE_REPLACE, x11->root,
		x11->atoms[atom], XCB_ATOM_CARDINAL, 32, n, values);
}

/* wlroots' XWM made the check window (named "wlroots wm"), or nobody did. */
static xcb_window_t find_check_window(struct xwm_x11 *x11) {
	xcb_get_property_cookie_t cookie = xcb_get_property(x11->conn, 0, x11->root,
		x11->atoms[ATOM_NET_SUPPORTING_WM_CHECK], XCB_ATOM_WINDOW, 0, 1);
	xcb_get_property_reply_t *reply = xcb_get_property_reply(x11->conn, cookie, NULL);
	xcb_window_t window = XCB_WINDOW_NONE;
	if (reply && reply->type == XCB_ATOM_WINDOW && reply->format == 32 &&
			xcb_get_property_value_length(reply) >= 4) {
		window = *(xcb_window_t *)xcb_get_property_value(reply);
	}
	free(reply);
	return window;
}

static void name_check_window(struct xwm_x11 *x11) {
	xcb_window_t window = find_check_window(x11);
	if (window == XCB_WINDOW_NONE) {
		window = x11->check_window = xcb_generate_id(x11->conn);
		xcb_create_window(x11->conn, XCB_COPY_FROM_PARENT, window, x11->root,
			-1, -1, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT,
			0, NULL);
		xcb_change_property(x11->conn, XCB_PROP_MODE_REPLACE, window,
			x11->atoms[ATOM_NET_SUPPORTING_WM_CHECK], XCB_ATOM_WINDOW, 32, 1,
			&window);
		xcb_change_property(x11->conn, XCB_PROP_MODE_REPLACE, x11->root,
			x11->atoms[ATOM_NET_SUPPORTING_WM_CHECK], XCB_ATOM_WINDOW, 32, 1,
			&window);
	}
	xcb_change_property(x11->conn, XCB_PROP_MODE_REPLACE, window,
		x11->atoms[ATOM_NET_WM_NAME], x11->atoms[ATOM_UTF8_STRING], 8,
		strlen(WM_NAME), WM_NAME);
}

void ewmh_root_init(struct xwm_x11 *x11) {
	name_check_window(x11);
	size_t n = sizeof(supported) / sizeof(supported[0]);
	xcb_atom_t atoms[sizeof(supported) / sizeof(supported[0])];
	for (size_t i = 0; i < n; i++) {
		atoms[i] = x11->atoms[supported[i]];
	}
	xcb_change_property(x11->conn, XCB_PROP_MODE_REPLACE, x11->root,
		x11->atoms[ATOM_NET_SUPPORTED], XCB_ATOM_ATOM, 32, n, atoms);
	uint32_t one = 1, zero = 0;
	set_cardinals(x11, ATOM_NET_NUMBER_OF_DESKTOPS, &one, 1);
	set_cardinals(x11, ATOM_NET_CURRENT_DESKTOP, &zero, 1);
	ewmh_root_update_geometry(x11);
}

/*
 * One desktop. Its geometry is the layout's bounding box; its work area is
 * the output's usable area (panels excluded), or with several outputs the
 * bounding box of their usable areas.
 */
void ewmh_root_update_geometry(struct xwm_x11 *x11) {
	struct server *server = x11->server;
	struct wlr_box *layout = wlr_output_layout_get_box(server->output_layout, NULL);
	uint32_t geometry[2] = {0, 0};
	if (layout && !wlr_box_empty(layout)) {
		geometry[0] = layout->x + layout->width;
		geometry[1] = layout->y + layout->height;
	}
	int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
	bool any = false;
	struct output *output;
	wl_list_for_each(output, &server->outputs, link) {
		struct wlr_box *area = &output->usable_area;
		if (wlr_box_empty(area)) {
			continue;
		}
		if (!any || area->x < x0) {
			x0 = area->x;
		}
		if (!any || area->y < y0) {
			y0 = area->y;
		}
		if (!any || area->x + area->width > x1) {
			x1 = area->x + area->width;
		}
		if (!any || area->y + area->height > y1) {
			y1 = area->y + area->height;
		}
		any = true;
	}
	uint32_t workarea[4] = {x0 < 0 ? 0 : x0, y0 < 0 ? 0 : y0,
		x1 > x0 ? x1 - x0 : 0, y1 > y0 ? y1 - y0 : 0};
	uint32_t viewport[2] = {0, 0};
	set_cardinals(x11, ATOM_NET_DESKTOP_GEOMETRY, geometry, 2);
	set_cardinals(x11, ATOM_NET_DESKTOP_VIEWPORT, viewport, 2);
	set_cardinals(x11, ATOM_NET_WORKAREA, workarea, 4);
	xcb_flush(x11->conn);
}
