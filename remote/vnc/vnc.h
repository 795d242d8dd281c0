/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_VNC_VNC_H
#define ORIEL_REMOTE_VNC_VNC_H

/*
 * The built-in VNC server: libvncserver driven from oriel's event loop,
 * fed by the output capture's damage. Settings come from
 * server->options->vnc.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct remote_client_info;
struct server;
struct vnc_server;

/* Call after server_start. NULL on failure (the reason is logged). */
struct vnc_server *vnc_server_create(struct server *server);
/* Call before server_finish; disconnects every viewer. NULL is a no-op. */
void vnc_server_destroy(struct vnc_server *vnc);

/*
 * For the control API (org.oriel.Compositor.Vnc).
 */
/* The VNC server of this compositor, or NULL when none runs. */
struct vnc_server *vnc_server_of(struct server *server);
/* A VNC server listening nowhere yet, for vnc_listen_start. NULL on failure. */
struct vnc_server *vnc_server_create_unlistened(struct server *server);

/*
 * Starts listening on "[ADDR:]PORT" or a Unix socket "/PATH". Non-loopback
 * addresses need a password file, as for --vnc. Returns 0, or a negative
 * errno with a sentence in error: -EINVAL (bad address), -EEXIST, -EPERM
 * (no password), -EADDRNOTAVAIL.
 */
int vnc_listen_start(struct vnc_server *vnc, const char *spec, char *error,
	size_t error_size);
/* Stops the listener(s) started for spec; viewers stay. 0, -EINVAL or -ENOENT. */
int vnc_listen_stop(struct vnc_server *vnc, const char *spec);

/* Fills up to max entries, oldest viewer first; returns how many viewers there are. */
size_t vnc_list_clients(struct vnc_server *vnc, struct remote_client_info *out, size_t max);
/* Disconnects a viewer; false when no viewer has that id. */
bool vnc_disconnect_client(struct vnc_server *vnc, uint64_t id);
/* The certificate's file and SHA-256 fingerprint ("AB:CD:..."). */
void vnc_certificate(struct vnc_server *vnc, const char **path, const char **sha256);

/*
 * The server behind remote/server.h (vnc_remote.c). Its names also stand
 * where VNC is not built in (remote_servers.c).
 */
#define VNC_REMOTE_NAMES \
	.name = "VNC", .command = "vnc", .interface = "Vnc", \
	.address_form = "[ADDR:]PORT or a Unix socket /PATH", .client_noun = "viewer"
struct remote_server;
extern const struct remote_server vnc_remote_server;

#endif
