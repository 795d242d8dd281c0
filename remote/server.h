/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_SERVER_H
#define ORIEL_REMOTE_SERVER_H

/*
 * The one interface a remote-access server implements, for main.c and
 * the control API: VNC in remote/vnc/vnc_remote.c, RDP in
 * remote/rdp/rdp_remote.c. remote_servers.h lists them. A protocol oriel
 * was built without is listed too, with its names only: its options are
 * refused at start, and the control API says it is not built in.
 *
 * The void * is the protocol's own server (struct vnc_server, ...); one
 * compositor runs at most one server of each protocol.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct server;
struct remote_client_info;

struct remote_server {
	const char *name;         /* "VNC", in messages */
	const char *command;      /* "vnc": orielctl's command, the build option */
	const char *interface;    /* "Vnc": the control API's org.oriel.Compositor.Vnc */
	const char *address_form; /* "[ADDR:]PORT or a Unix socket /PATH" */
	const char *client_noun;  /* "viewer" */
	bool built;               /* false: every function below is NULL */

	/*
	 * After server_start, with server->handover made: starts what the
	 * options ask for (listeners, or a wait for a handed-over client).
	 * False when it cannot, with the cause recorded (startup_error.h).
	 */
	bool (*start)(struct server *server);
	/* The server of this compositor, or NULL when none runs. */
	void *(*of)(struct server *server);
	/* A server listening nowhere yet, for listen_start. NULL on failure. */
	void *(*create_unlistened)(struct server *server);
	/* Disconnects every client. NULL is a no-op. */
	void (*destroy)(void *remote);
	/*
	 * Starts listening on an address of address_form. 0, or a negative
	 * errno with a sentence in why: -EINVAL (bad address), -EEXIST,
	 * -EPERM (no authentication beyond loopback), -EADDRNOTAVAIL.
	 */
	int (*listen_start)(void *remote, const char *spec, char *why, size_t why_size);
	/* Stops the listener(s) started for spec; clients stay. 0, -EINVAL or -ENOENT. */
	int (*listen_stop)(void *remote, const char *spec);
	/* Fills up to max entries, oldest client first; returns how many there are. */
	size_t (*list_clients)(void *remote, struct remote_client_info *out, size_t max);
	/* False when no client has that id. */
	bool (*disconnect)(void *remote, uint64_t id);
	/* The certificate's file and SHA-256 fingerprint ("AB:CD:..."). */
	void (*certificate)(void *remote, const char **path, const char **sha256);
};

/*
 * A protocol's header names its functions after its prefix, as vnc.h and
 * rdp.h do: PREFIX_server_of, PREFIX_server_create_unlistened,
 * PREFIX_server_destroy, PREFIX_listen_start, PREFIX_listen_stop,
 * PREFIX_list_clients, PREFIX_disconnect_client and PREFIX_certificate,
 * on a struct PREFIX_server *. REMOTE_SERVER_ADAPTERS(PREFIX) defines
 * their adapters to this interface's void *, once for every protocol;
 * REMOTE_SERVER_ADAPTED fills the fields with them.
 */
#define REMOTE_SERVER_ADAPTERS(prefix) \
	static void *adapted_of(struct server *server) { \
		return prefix##_server_of(server); \
	} \
	static void *adapted_create_unlistened(struct server *server) { \
		return prefix##_server_create_unlistened(server); \
	} \
	static void adapted_destroy(void *remote) { \
		prefix##_server_destroy(remote); \
	} \
	static int adapted_listen_start(void *remote, const char *spec, char *why, \
			size_t why_size) { \
		return prefix##_listen_start(remote, spec, why, why_size); \
	} \
	static int adapted_listen_stop(void *remote, const char *spec) { \
		return prefix##_listen_stop(remote, spec); \
	} \
	static size_t adapted_list_clients(void *remote, struct remote_client_info *out, \
			size_t max) { \
		return prefix##_list_clients(remote, out, max); \
	} \
	static bool adapted_disconnect(void *remote, uint64_t id) { \
		return prefix##_disconnect_client(remote, id); \
	} \
	static void adapted_certificate(void *remote, const char **path, \
			const char **sha256) { \
		prefix##_certificate(remote, path, sha256); \
	}

#define REMOTE_SERVER_ADAPTED \
	.built = true, \
	.of = adapted_of, \
	.create_unlistened = adapted_create_unlistened, \
	.destroy = adapted_destroy, \
	.listen_start = adapted_listen_start, \
	.listen_stop = adapted_listen_stop, \
	.list_clients = adapted_list_clients, \
	.disconnect = adapted_disconnect, \
	.certificate = adapted_certificate

#endif
