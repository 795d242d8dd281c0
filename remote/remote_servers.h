/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_REMOTE_SERVERS_H
#define ORIEL_REMOTE_REMOTE_SERVERS_H

/*
 * Every remote-access protocol oriel knows (remote/server.h), built in or
 * not, in the order the control API offers them; and their start and
 * stop with the hand-over from oriel-gateway, for main.c.
 */

#include <stdbool.h>
#include "remote/server.h"

#define REMOTE_SERVERS 2

extern const struct remote_server *const remote_servers[REMOTE_SERVERS];

/*
 * After server_start: the hand-over socket, then what each protocol's
 * options ask for. False with the cause recorded (startup_error.h); call
 * remote_servers_stop then too.
 */
bool remote_servers_start(struct server *server);
/* After the control API is gone: the hand-over, then every server that runs. */
void remote_servers_stop(struct server *server);

#endif
