/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_H
#define ORIEL_REMOTE_RDP_RDP_H

/*
 * The built-in RDP server: FreeRDP 2's server libraries driven from
 * oriel's event loop, fed by the output capture's damage. Settings come
 * from server->options->rdp.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct server;
struct remote_client_info;
struct rdp_server;

/* Call after server_start. NULL on failure (the reason is logged). */
struct rdp_server *rdp_server_create(struct server *server);
/* Call before server_finish; disconnects every client. NULL is a no-op. */
void rdp_server_destroy(struct rdp_server *rdp);
/*
 * Hosted by oriel-gateway without --rdp: the server starts when the first
 * RDP client is handed over (server->handover). Destroy it with
 * rdp_server_destroy(rdp_server_of(server)).
 */
void rdp_handover_defer(struct server *server);

/*
 * For the control API (org.oriel.Compositor.Rdp).
 */
/* The RDP server of this compositor, or NULL when none runs. */
struct rdp_server *rdp_server_of(struct server *server);
/* An RDP server listening nowhere yet, for rdp_listen_start. NULL on failure. */
struct rdp_server *rdp_server_create_unlistened(struct server *server);
/*
 * Starts listening on "[ADDR:]PORT". Non-loopback addresses need accounts,
 * as for --rdp. Returns 0, or a negative errno with a sentence in error:
 * -EINVAL (bad address), -EEXIST, -EPERM (no accounts), -EADDRNOTAVAIL.
 */
int rdp_listen_start(struct rdp_server *rdp, const char *spec, char *error,
	size_t error_size);
/* Stops the listener(s) started for spec; clients stay. 0, -EINVAL or -ENOENT. */
int rdp_listen_stop(struct rdp_server *rdp, const char *spec);

/* Fills up to max entries, oldest session first; returns how many sessions there are. */
size_t rdp_list_clients(struct rdp_server *rdp, struct remote_client_info *out, size_t max);
/* Disconnects a session's client; false when no session has that id. */
bool rdp_disconnect_client(struct rdp_server *rdp, uint64_t id);
/* The certificate's file and SHA-256 fingerprint ("AB:CD:..."). */
void rdp_certificate(struct rdp_server *rdp, const char **path, const char **sha256);

/*
 * The server behind remote/server.h (rdp_remote.c). Its names also stand
 * where RDP is not built in (remote_servers.c).
 */
#define RDP_REMOTE_NAMES \
	.name = "RDP", .command = "rdp", .interface = "Rdp", \
	.address_form = "[ADDR:]PORT", .client_noun = "client"
struct remote_server;
extern const struct remote_server rdp_remote_server;

#endif
