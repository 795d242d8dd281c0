/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_SWITCHER_H
#define ORIEL_SWITCHER_H

/*
 * Alt+Tab: while Alt is held, Tab (Shift+Tab backwards) walks the windows
 * in the order they last had focus, shown as a list of titles in the
 * middle of the screen. Releasing Alt focuses the chosen window, restoring
 * it when minimized; Escape leaves the focus where it was. It listens
 * for Alt+Tab through the seat, and holds a seat grab while the list is
 * up (seat_grab.h).
 */

struct server;
struct switcher;
struct view;

struct switcher *switcher_create(struct server *server);
void switcher_destroy(struct switcher *switcher);
/* A view unmapped: it leaves the list. */
void switcher_view_gone(struct switcher *switcher, struct view *view);

#endif
