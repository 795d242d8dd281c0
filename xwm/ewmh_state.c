/* SPDX-License-Identifier: MIT */
/*
 * _NET_WM_STATE atoms that oriel implements beyond wlroots' XWM: ABOVE,
 * BELOW, STICKY, SKIP_TASKBAR and SKIP_PAGER. wlroots rewrites the property
 * with only its own atoms (on focus changes and its own states), so ours
 * are merged back in each time it does.
 */
#include <stdlib.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>
#include "compositor/view.h"
#include "xwm/icccm_hints.h"
#include "xwm/x11.h"
#include "xwm/xwayland.h"

#define STATE_ATOMS_MAX 32
/* In write_states' set of atoms found: DEMANDS_ATTENTION, beside ours. */
#define ATTENTION_PRESENT (1u << EWMH_STATE_COUNT)
#define ALL_DESKTOPS 0xffffffffu

/* Bit i of the EWMH_STATE_* set is this atom. */
static const enum xwm_atom state_atoms[EWMH_STATE_COUNT] = {
	ATOM_NET_WM_STATE_ABOVE,
	ATOM_NET_WM_STATE_BELOW,
	ATOM_NET_WM_STATE_STICKY,
	ATOM_NET_WM_STATE_SKIP_TASKBAR,
	ATOM_NET_WM_STATE_SKIP_PAGER,
};

static uint32_t state_bit(struct xwm_x11 *x11, xcb_atom_t atom) {
	for (int i = 0; i < EWMH_STATE_COUNT; i++) {
		if (atom != XCB_ATOM_NONE && x11->atoms[state_atoms[i]] == atom) {
			return 1u << i;
		}
	}
	return 0;
}

static xcb_get_property_reply_t *get_states(struct xwm_x11 *x11, xcb_window_t window) {
	xcb_get_property_reply_t *reply = xcb_get_property_reply(x11->conn,
		xcb_get_property(x11->conn, 0, window, x11->atoms[ATOM_NET_WM_STATE],
			XCB_ATOM_ATOM, 0, STATE_ATOMS_MAX), NULL);
	xwm_x11_schedule_drain(x11);
	if (reply && (reply->type != XCB_ATOM_ATOM || reply->format != 32)) {
		free(reply);
		return NULL;
	}
	return reply;
}

uint32_t ewmh_state_read(struct xwm_x11 *x11, xcb_window_t window) {
	if (!x11) {
		return 0;
	}
	xcb_get_property_reply_t *reply = get_states(x11, window);
	if (!reply) {
		return 0;
	}
	const xcb_atom_t *atoms = xcb_get_property_value(reply);
	int n = xcb_get_property_value_length(reply) / 4;
	uint32_t states = 0;
	for (int i = 0; i < n; i++) {
		states |= state_bit(x11, atoms[i]);
		if (atoms[i] == x11->atoms[ATOM_NET_WM_STATE_FULLSCREEN]) {
			states |= EWMH_STATE_INITIAL_FULLSCREEN;
		} else if (atoms[i] == x11->atoms[ATOM_NET_WM_STATE_MAXIMIZED_VERT]) {
			states |= EWMH_STATE_INITIAL_MAXIMIZED_VERT;
		} else if (atoms[i] == x11->atoms[ATOM_NET_WM_STATE_MAXIMIZED_HORZ]) {
			states |= EWMH_STATE_INITIAL_MAXIMIZED_HORZ;
		}
	}
	free(reply);
	/* A client asking for both gets neither guess wrong: ABOVE wins. */
	if ((states & EWMH_STATE_ABOVE) && (states & EWMH_STATE_BELOW)) {
		states &= ~EWMH_STATE_BELOW;
	}
	return states;
}

/*
 * The property as it is, minus our atoms, plus the ones in states and
 * DEMANDS_ATTENTION when the view shows it wants attention (urgency or a
 * request; EWMH says the WM keeps it until the window is activated). The
 * server is grabbed so that wlroots' XWM cannot write in between.
 */
static void write_states(struct xwm_x11 *x11, struct view *view, uint32_t states) {
	xcb_window_t window = xwayland_view_window(view);
	xcb_atom_t attention = x11->atoms[ATOM_NET_WM_STATE_DEMANDS_ATTENTION];
	bool wants_attention = view_wants_attention(view);
	xcb_grab_server(x11->conn);
	xcb_get_property_reply_t *reply = get_states(x11, window);
	xcb_atom_t atoms[STATE_ATOMS_MAX + EWMH_STATE_COUNT + 1];
	uint32_t n = 0;
	bool changed = false;
	uint32_t present = 0;
	if (reply) {
		const xcb_atom_t *old = xcb_get_property_value(reply);
		int old_n = xcb_get_property_value_length(reply) / 4;
		for (int i = 0; i < old_n && i < STATE_ATOMS_MAX; i++) {
			if (old[i] == attention) {
				if (wants_attention && !(present & ATTENTION_PRESENT)) {
					present |= ATTENTION_PRESENT;
					atoms[n++] = old[i];
				} else {
					changed = true;
				}
				continue;
			}
			uint32_t bit = state_bit(x11, old[i]);
			if (bit && !(states & bit)) {
				changed = true; /* ours, no longer set */
				continue;
			}
			present |= bit;
			atoms[n++] = old[i];
		}
	}
	for (int i = 0; i < EWMH_STATE_COUNT; i++) {
		if ((states & (1u << i)) && !(present & (1u << i))) {
			atoms[n++] = x11->atoms[state_atoms[i]];
			changed = true;
		}
	}
	if (wants_attention && !(present & ATTENTION_PRESENT)) {
		atoms[n++] = attention;
		changed = true;
	}
	if (changed) {
		xcb_change_property(x11->conn, XCB_PROP_MODE_REPLACE, window,
			x11->atoms[ATOM_NET_WM_STATE], XCB_ATOM_ATOM, 32, n, atoms);
	}
	xcb_ungrab_server(x11->conn);
	xwm_x11_flush(x11);
	free(reply);
}

/* ABOVE or BELOW as asked, else where the window's type stacks. */
static enum view_band band_of(struct xwm_x11 *x11, xcb_window_t window, uint32_t states) {
	if (states & EWMH_STATE_ABOVE) {
		return VIEW_BAND_ABOVE;
	} else if (states & EWMH_STATE_BELOW) {
		return VIEW_BAND_BELOW;
	} else if (!x11) {
		return VIEW_BAND_NORMAL;
	}
	struct ewmh_type_policy policy;
	ewmh_window_type_policy(xwm_x11_window_type(x11, window), &policy);
	return policy.layer == EWMH_LAYER_ABOVE ? VIEW_BAND_ABOVE :
		policy.layer == EWMH_LAYER_BELOW ? VIEW_BAND_BELOW : VIEW_BAND_NORMAL;
}

/* What the client asked for before mapping, now that it is mapped. */
static void apply_initial(struct view *view, uint32_t initial) {
	if (!view->mapped) {
		return;
	}
	if (initial & EWMH_STATE_INITIAL_FULLSCREEN) {
		view_set_fullscreen(view, true);
	} else if (initial & (EWMH_STATE_INITIAL_MAXIMIZED_VERT |
			EWMH_STATE_INITIAL_MAXIMIZED_HORZ)) {
		view_set_maximized_axes(view,
			(initial & EWMH_STATE_INITIAL_MAXIMIZED_HORZ ? PLACEMENT_AXIS_HORZ : 0) |
			(initial & EWMH_STATE_INITIAL_MAXIMIZED_VERT ? PLACEMENT_AXIS_VERT : 0));
	}
}

void ewmh_state_apply(struct xwm_x11 *x11, struct view *view, uint32_t states) {
	uint32_t initial = states & EWMH_STATE_INITIAL_MASK;
	states &= ~EWMH_STATE_INITIAL_MASK;
	xcb_window_t window = xwayland_view_window(view);
	*xwayland_view_states(view) = states;
	view_set_band(view, band_of(x11, window, states));
	view_set_skip_taskbar(view, states & EWMH_STATE_SKIP_TASKBAR);
	apply_initial(view, initial);
	if (!x11) {
		return;
	}
	/* One desktop: a sticky window is on all of them (EWMH _NET_WM_DESKTOP). */
	uint32_t desktop = states & EWMH_STATE_STICKY ? ALL_DESKTOPS : 0;
	xcb_change_property(x11->conn, XCB_PROP_MODE_REPLACE, window,
		x11->atoms[ATOM_NET_WM_DESKTOP], XCB_ATOM_CARDINAL, 32, 1, &desktop);
	write_states(x11, view, states);
}

void ewmh_state_request(struct xwm_x11 *x11, struct view *view, const uint32_t *data) {
	uint32_t states = *xwayland_view_states(view);
	/* data.l[1] and data.l[2]: one or two properties to change together. */
	for (int i = 1; i <= 2; i++) {
		uint32_t bit = state_bit(x11, data[i]);
		if (bit) {
			states = ewmh_state_update(states, data[0], bit);
		}
	}
	if (states != *xwayland_view_states(view)) {
		ewmh_state_apply(x11, view, states);
	}
}

void ewmh_desktop_request(struct xwm_x11 *x11, struct view *view, const uint32_t *data) {
	uint32_t states = *xwayland_view_states(view);
	states = data[0] == ALL_DESKTOPS ? states | EWMH_STATE_STICKY :
		states & ~EWMH_STATE_STICKY;
	/* Moving to desktop 0 or all of them: the answer is the property. */
	ewmh_state_apply(x11, view, states);
}

void ewmh_state_property_changed(struct xwm_x11 *x11, struct view *view) {
	unsigned axes = xwayland_view_requested_axes(view);
	if (view->mapped && axes != view->maximized_axes) {
		/*
		 * wlroots' XWM took a request into the property that it signals
		 * only when both axes change together (one axis alone, or one
		 * of both let go): the view follows, or the property goes back
		 * to what it is, and notifies again.
		 */
		view_set_maximized_axes(view, axes);
	} else if (view->mapped) {
		write_states(x11, view, *xwayland_view_states(view));
	}
	/* Withdrawn: what the client asks for is read at its MapRequest. */
}

/*
 * A client sets _NET_WM_STATE itself while its window is withdrawn, then
 * maps it; wlroots' XWM answers the MapRequest by rewriting the property
 * with its own atoms. The one moment the client's value is sure to be
 * there is now, before wlroots handles the MapRequest: the property was
 * set before MapWindow, and wlroots has not written yet. Reading it
 * later, on a PropertyNotify of oriel's connection, is a race: that event
 * may sit in xcb's queue (read with some reply) while wlroots' connection
 * goes on to the MapRequest, and the read then finds wlroots' rewrite.
 */
void ewmh_state_map_requested(struct xwm_x11 *x11, struct view *view) {
	*xwayland_view_states(view) = ewmh_state_read(x11, xwayland_view_window(view));
}

void ewmh_state_attention_changed(struct xwm_x11 *x11, struct view *view) {
	if (x11) {
		write_states(x11, view, *xwayland_view_states(view));
	}
}
