/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CONTROL_CONTROL_REMOTE_SERVER_H
#define ORIEL_CONTROL_CONTROL_REMOTE_SERVER_H

/*
 * The control API's interface for a remote-access server (VNC, RDP):
 * StartListener, StopListener, ListClients, Disconnect, Certificate. One
 * implementation for every protocol of remote/remote_servers.h, through
 * remote/server.h. Starting a listener in a session that runs no such
 * server starts one, owned by the control API.
 */

#include <stdbool.h>
#include <systemd/sd-bus.h>

struct control;
struct remote_server;

struct control_remote_server {
	struct control *control;
	const struct remote_server *protocol;
	/* org.oriel.Compositor.Vnc, ... */
	char interface[64];
	sd_bus_slot *slot;
	void *owned; /* the server the control API started */
};

/* Names the interface after protocol; exporting it is the caller's. */
void control_remote_server_init(struct control_remote_server *remote,
	struct control *control, const struct remote_server *protocol);
/* The interface's methods; their userdata is a struct control_remote_server. */
extern const sd_bus_vtable control_remote_server_vtable[];
/* Removes the interface and destroys the server the control API started, if any. */
void control_remote_server_finish(struct control_remote_server *remote);

#endif
