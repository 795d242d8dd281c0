/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_SESSION_BUS_H
#define ORIEL_SESSION_BUS_H

/*
 * --dbus: which session bus oriel and its command use. With spawn (or auto
 * and no bus in the environment) oriel runs a private dbus-daemon for the
 * session, exports its address and stops it on exit.
 */

#include <stdbool.h>
#include <sys/types.h>
#include "compositor/options.h"

struct session_bus {
	bool available;
	pid_t daemon_pid; /* 0 when the bus is not ours */
	/* $XDG_RUNTIME_DIR/dbus-1 when the daemon made it; removed if empty. */
	char services_dir[4096];
	char socket_path[4096]; /* the daemon's socket, removed after it */
};

bool session_bus_init(struct session_bus *bus, enum options_dbus mode);
void session_bus_finish(struct session_bus *bus);

#endif
