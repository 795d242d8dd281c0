/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_REMOTE_HANDOVER_SERVER_H
#define ORIEL_CAPTURE_REMOTE_HANDOVER_SERVER_H

/*
 * The session's side of oriel-gateway's hand-over (handover.h): the
 * socket given by --handover-socket, in oriel's event loop. Only root
 * (the gateway) and this session's own user may connect. Each request's
 * connection goes to the server of its protocol (VNC, RDP), which takes
 * it or says why not; STATUS is answered with the clients of all.
 */

#include <stdbool.h>
#include <stdint.h>
#include "capture/remote/handover.h"

struct wl_event_loop;
struct handover_server;

/*
 * Takes a logged-in client: fd (owned from here, also on failure) with
 * message's state. NULL when taken, else why not.
 */
typedef const char *(*handover_take_fn)(void *data, const struct handover_message *message,
	int fd);
/* How many clients the protocol's server has. */
typedef uint32_t (*handover_clients_fn)(void *data);

/* Listens on path (made 0600). NULL on failure (logged). */
struct handover_server *handover_server_create(struct wl_event_loop *loop, const char *path);
/* NULL is a no-op. */
void handover_server_destroy(struct handover_server *server);

/* The server of protocol; take NULL: none (any more). */
void handover_server_set_taker(struct handover_server *server,
	enum handover_protocol protocol, handover_take_fn take, handover_clients_fn clients,
	void *data);

#endif
