/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_DECORATION_PROTOCOLS_H
#define ORIEL_DECORATION_PROTOCOLS_H

/* xdg-decoration and KDE server-decoration: oriel prefers drawing frames. */

struct server;

void decoration_protocols_init(struct server *server);
void decoration_protocols_finish(struct server *server);

#endif
