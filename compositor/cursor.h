/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CURSOR_H
#define ORIEL_CURSOR_H

/* The pointer: focus, click-to-focus, Alt+drag, move/resize grabs, constraints. */

struct seat;
struct wlr_surface;

void cursor_init(struct seat *seat);
void cursor_finish(struct seat *seat);
/* Activates a pointer constraint the newly focused surface has. */
void cursor_constraint_check(struct seat *seat, struct wlr_surface *surface);

#endif
