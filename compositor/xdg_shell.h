/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_XDG_SHELL_H
#define ORIEL_XDG_SHELL_H

#include <stdbool.h>

struct server;
struct wlr_surface;

/* xdg-shell toplevels become views; popups stay on their output. */
void xdg_shell_init(struct server *server);
void xdg_shell_finish(struct server *server);
/* Decoration protocols report the mode a toplevel's surface agreed to. */
void xdg_shell_set_server_side(struct wlr_surface *surface, bool server_side);

#endif
