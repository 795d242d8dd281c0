/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>
#include "compositor/output.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"
#include "xwm/x11.h"
#include "xwm/xwayland.h"

#define WM_NAME "oriel"
/* Longest _NET_CLIENT_LIST read, in windows. */
#define CLIENT_LIST_MAX 4096

/*
 * _NET_SUPPORTED: what oriel and wlroots' XWM implement together, nothing
 * more. Every atom in enum xwm_atom is an EWMH feature, except these.
 */
static bool is_supported(struct xwm_x11 *x11, enum xwm_atom atom) {
	return atom != ATOM_UTF8_STRING && atom != ATOM_WM_PROTOCOLS &&
		atom != ATOM_WM_TAKE_FOCUS &&
		(atom != ATOM_NET_WM_SYNC_REQUEST || x11->has_sync);
}

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
	xcb_atom_t atoms[ATOM_COUNT];
	uint32_t n = 0;
	for (enum xwm_atom atom = 0; atom < ATOM_COUNT; atom++) {
		if (is_supported(x11, atom)) {
			atoms[n++] = x11->atoms[atom];
		}
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
	xwm_x11_flush(x11);
}

/* Windows with no view yet sort last, in the order wlroots gave them. */
static uint64_t map_order(struct xwm_x11 *x11, xcb_window_t window) {
	struct view *view = xwayland_view_find(x11->server, window);
	return view ? view->id : UINT64_MAX;
}

/*
 * EWMH: _NET_CLIENT_LIST is in initial mapping order, oldest first.
 * wlroots 0.15's XWM writes it newest first; views are numbered as they
 * are created, which is the order their windows first map. The server is
 * grabbed so that wlroots' XWM cannot write in between; the rewrite
 * notifies again, and then the list is in order and left alone.
 */
void ewmh_root_client_list_changed(struct xwm_x11 *x11) {
	xcb_grab_server(x11->conn);
	xcb_get_property_reply_t *reply = xcb_get_property_reply(x11->conn,
		xcb_get_property(x11->conn, 0, x11->root, x11->atoms[ATOM_NET_CLIENT_LIST],
			XCB_ATOM_WINDOW, 0, CLIENT_LIST_MAX), NULL);
	xwm_x11_schedule_drain(x11);
	if (reply && reply->type == XCB_ATOM_WINDOW && reply->format == 32) {
		const xcb_window_t *old = xcb_get_property_value(reply);
		uint32_t n = (uint32_t)xcb_get_property_value_length(reply) / 4;
		xcb_window_t *sorted = zalloc((n ? n : 1) * sizeof(*sorted));
		uint64_t *keys = zalloc((n ? n : 1) * sizeof(*keys));
		bool changed = false;
		for (uint32_t i = 0; i < n; i++) {
			/* Insertion sort: stable, and the list is short. */
			uint64_t key = map_order(x11, old[i]);
			uint32_t j = i;
			while (j > 0 && keys[j - 1] > key) {
				sorted[j] = sorted[j - 1];
				keys[j] = keys[j - 1];
				j--;
			}
			sorted[j] = old[i];
			keys[j] = key;
		}
		for (uint32_t i = 0; i < n; i++) {
			changed |= sorted[i] != old[i];
		}
		if (changed) {
			xcb_change_property(x11->conn, XCB_PROP_MODE_REPLACE, x11->root,
				x11->atoms[ATOM_NET_CLIENT_LIST], XCB_ATOM_WINDOW, 32, n, sorted);
		}
		free(sorted);
		free(keys);
	}
	free(reply);
	xcb_ungrab_server(x11->conn);
	xcb_flush(x11->conn);
}
