/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_HANDOVER_SERVER_H
#define ORIEL_REMOTE_HANDOVER_SERVER_H

/*
 * The session's side of oriel-gateway's hand-over (handover.h): the
 * socket given by --handover-socket, in oriel's event loop. Only root
 * (the gateway) and this session's own user may connect. Each request's
 * connection goes to the server of its protocol (VNC, RDP), which takes
 * it or says why not; under the take-over policy every protocol's clients
 * go first. STATUS is answered with the clients of all, and
 * --exit-without-clients counts them all.
 */

#include <stdbool.h>
#include <stdint.h>
#include "remote/handover.h"

struct wl_event_loop;
struct handover_server;

/*
 * Takes a logged-in client: fd (owned from here, also on failure) with
 * message's state. NULL when taken, else why not.
 */
typedef const char *(*handover_take_fn)(void *data, const struct handover_message *message,
	int fd);

struct handover_taker {
	handover_take_fn take;
	/* How many clients the protocol's server has. */
	uint32_t (*clients)(void *data);
	/* Disconnects them all: user logged in again and takes the session over. */
	void (*drop_all)(void *data, const char *user);
};

struct wl_display;
/*
 * Listens on path (made 0600). With exit_without_clients (seconds, > 0),
 * display is terminated once no client of any protocol was there that
 * long. NULL on failure (logged).
 */
struct handover_server *handover_server_create(struct wl_display *display,
	struct wl_event_loop *loop, const char *path, int exit_without_clients);
/* NULL is a no-op. */
void handover_server_destroy(struct handover_server *server);

/* The server of protocol (taker is kept); NULL: none (any more). server NULL: no-op. */
void handover_server_set_taker(struct handover_server *server,
	enum handover_protocol protocol, const struct handover_taker *taker, void *data);
/* A protocol's server has more or fewer clients now. server NULL: no-op. */
void handover_server_clients_changed(struct handover_server *server);

#endif
