/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_TLS_BRIDGE_H
#define ORIEL_REMOTE_TLS_BRIDGE_H

/*
 * A client that oriel-gateway handed over for RDP (handover.h), served by
 * oriel's own FreeRDP server as if it had connected to it. FreeRDP owns
 * its transport and its TLS, and cannot take the gateway's TLS state, so
 * it gets one end of a socketpair, and a thread of the bridge's:
 *
 *  1. writes the client's X.224 Connection Request to FreeRDP, and reads
 *     and drops FreeRDP's Connection Confirm (the gateway answered the
 *     client already), which must select TLS as the gateway's did;
 *  2. runs a TLS client handshake with FreeRDP over the socketpair (no
 *     certificate check: the other end is ours);
 *  3. passes the plaintext the gateway read after its handshake, and
 *     from then on moves plaintext both ways: the client's records,
 *     sealed and opened with the gateway's keys (tls_record.h), against
 *     the records of the inner TLS with FreeRDP.
 *
 * The session's FreeRDP never sees the gateway's key; the inner TLS is
 * the price: every byte is sealed and opened twice in the session. The
 * bridge ends when either side closes. Pure: no wlroots.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/link_backlog.h"
#include "remote/rdp_pdu.h"

struct tls_stream;
struct tls_bridge;

/*
 * Starts the bridge's thread: client is the client's TLS (taken, with
 * client_fd, its socket), request the X.224 Connection Request (copied),
 * pending the plaintext after it (copied). *local_fd is FreeRDP's end of
 * the socketpair, the caller's to give to FreeRDP. NULL on failure
 * (client and client_fd closed).
 */
struct tls_bridge *tls_bridge_start(struct tls_stream *client, int client_fd,
	const uint8_t *request, size_t request_len, const uint8_t *pending,
	size_t pending_len, int *local_fd);
/*
 * oriel-gateway's relay of a client that cannot follow a Server
 * Redirection: the gateway's FreeRDP logs the client in through a
 * bridge, whose tap keeps a copy of the plaintext it passed from the
 * client (up to capacity) and counts the PDUs it passed to it, so that
 * the session's FreeRDP can be walked through the same steps. Read it
 * under its lock, or after tls_bridge_detach.
 */
struct tls_bridge_tap {
	pthread_mutex_t lock; /* held by the bridge while it notes */
	uint8_t *client; /* capacity bytes */
	size_t capacity, len;
	bool overflowed; /* the client sent more than capacity */
	struct rdp_pdu_counter to_client;
};

/* tls_bridge_start, with tap (the caller's, until the bridge is gone). */
struct tls_bridge *tls_bridge_start_tapped(struct tls_stream *client, int client_fd,
	const uint8_t *request, size_t request_len, const uint8_t *pending,
	size_t pending_len, struct tls_bridge_tap *tap, int *local_fd);
/*
 * Stops the thread and gives the client's TLS and socket back into
 * *client and *client_fd, for the caller to go on with; closes the rest.
 * Only a tapped bridge, and only when nothing was on its way either way:
 * false otherwise (then everything is closed).
 */
bool tls_bridge_detach(struct tls_bridge *bridge, struct tls_stream **client,
	int *client_fd);
/*
 * Adds the client's link beyond FreeRDP's socket: what the bridge read
 * from it but has not sent yet, and the client's socket's own backlog.
 * Any thread, while the bridge exists.
 */
void tls_bridge_backlog(struct tls_bridge *bridge, struct link_backlog *backlog);
/* Stops the thread if it still runs, waits for it, closes what it holds. NULL: no-op. */
void tls_bridge_destroy(struct tls_bridge *bridge);
/*
 * Gives the thread up to timeout_ms to pass on what is left after
 * FreeRDP closed its end (e.g. a last PDU), then destroys the bridge.
 */
void tls_bridge_finish(struct tls_bridge *bridge, int timeout_ms);

#endif
