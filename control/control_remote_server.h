/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CONTROL_CONTROL_REMOTE_SERVER_H
#define ORIEL_CONTROL_CONTROL_REMOTE_SERVER_H

/*
 * The control API's interface for a remote-desktop server (VNC, RDP):
 * StartListener, StopListener, ListClients, Disconnect, Certificate. One
 * implementation; each server fills in its functions (control_vnc.c,
 * control_rdp.c). Starting a listener in a session that runs no such
 * server starts one, owned by the control API.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

struct control;
struct server;
struct remote_client_info;

struct control_remote_server {
	struct control *control;
	const char *name;         /* "VNC" */
	const char *command;      /* "vnc", as orielctl spells it */
	const char *address_form; /* "[ADDR:]PORT or a Unix socket /PATH" */
	const char *client_noun;  /* "viewer" */
	bool built;               /* false: every method says it is not built in */
	void *owned;              /* the server the control API started */

	void *(*of)(struct server *server);
	void *(*create_unlistened)(struct server *server);
	void (*destroy)(void *remote);
	/* 0, or a negative errno with a sentence in why (see vnc_listen_start). */
	int (*listen_start)(void *remote, const char *spec, char *why, size_t why_size);
	int (*listen_stop)(void *remote, const char *spec);
	size_t (*list_clients)(void *remote, struct remote_client_info *out, size_t max);
	bool (*disconnect)(void *remote, uint64_t id);
	void (*certificate)(void *remote, const char **path, const char **sha256);
};

/* The interface's methods; their userdata is a struct control_remote_server. */
extern const sd_bus_vtable control_remote_server_vtable[];
/* Destroys the server the control API started, if any. */
void control_remote_server_finish(struct control_remote_server *remote);

#endif
