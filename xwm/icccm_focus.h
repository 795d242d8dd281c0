/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_XWM_ICCCM_FOCUS_H
#define ORIEL_XWM_ICCCM_FOCUS_H

/*
 * ICCCM 4.1.7 input focus models, from WM_HINTS.input and WM_TAKE_FOCUS
 * in WM_PROTOCOLS:
 *   No Input         input False, no WM_TAKE_FOCUS: never focused
 *   Passive          input True: SetInputFocus
 *   Locally Active   input True + WM_TAKE_FOCUS: SetInputFocus and WM_TAKE_FOCUS
 *   Globally Active  input False + WM_TAKE_FOCUS: only WM_TAKE_FOCUS
 */

#include <stdbool.h>

struct wlr_xwayland_surface;
struct xwm_x11;

/* Whether the window takes keyboard focus at all (every model but No Input). */
bool icccm_focus_accepts(struct wlr_xwayland_surface *xsurface);
/*
 * Completes what wlroots' XWM does when a window is activated: it calls
 * SetInputFocus for input windows and sends WM_TAKE_FOCUS only to windows
 * without input (its message to the others has an event mask nobody
 * selects, so it never arrives). Locally Active windows get theirs here.
 */
void icccm_focus_activated(struct xwm_x11 *x11, struct wlr_xwayland_surface *xsurface);

#endif
