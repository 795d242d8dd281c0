/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_XWM_XDND_BRIDGE_H
#define ORIEL_XWM_XDND_BRIDGE_H

/*
 * Drag and drop from X windows to Wayland ones (wlroots 0.15 bridges only
 * the other way). While an X client drags (it owns XdndSelection, and the
 * button pressed on its window is still held) over a Wayland surface, an
 * invisible XdndAware window of oriel's is put under the pointer. The X
 * source then talks XDND to it, and oriel turns that into a Wayland drag
 * whose data source converts XdndSelection; when the Wayland side drops
 * or gives up, the X source gets its button release and finishes.
 */

#include <stdbool.h>
#include <xcb/xcb.h>

struct xwm_x11;
struct xdnd_bridge;

struct xdnd_bridge *xdnd_bridge_create(struct xwm_x11 *x11);
/* NULL is a no-op. */
void xdnd_bridge_destroy(struct xdnd_bridge *bridge);

/* Events on oriel's X connection: true when the bridge took the event. */
bool xdnd_bridge_client_message(struct xdnd_bridge *bridge,
	xcb_client_message_event_t *event);
bool xdnd_bridge_selection_notify(struct xdnd_bridge *bridge,
	xcb_selection_notify_event_t *event);
bool xdnd_bridge_property_notify(struct xdnd_bridge *bridge,
	xcb_property_notify_event_t *event);

#endif
