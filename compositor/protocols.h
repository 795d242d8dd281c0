/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_PROTOCOLS_H
#define ORIEL_PROTOCOLS_H

/*
 * The small protocols that need one policy decision each: xdg-activation,
 * idle-inhibit and keyboard-shortcuts-inhibit. The plain globals that need
 * none are created in server.c.
 */

struct server;

void protocols_init(struct server *server);
void protocols_finish(struct server *server);

#endif
