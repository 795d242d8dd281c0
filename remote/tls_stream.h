/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_TLS_STREAM_H
#define ORIEL_REMOTE_TLS_STREAM_H

/*
 * A client's TLS, whoever runs it: a GnuTLS session whose handshake this
 * process did, or a connection the gateway handed over (tls_record.c).
 * Sending and receiving work alike for both. Pure: no wlroots.
 */

#include <gnutls/gnutls.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tls_record;
struct tls_stream;

/* Takes the session (deinit with the stream). NULL on failure. */
struct tls_stream *tls_stream_from_session(gnutls_session_t session);
/* Takes the record layer (destroyed with the stream). NULL on failure. */
struct tls_stream *tls_stream_from_record(struct tls_record *record);
/*
 * The TLS of a client oriel-gateway handed over (handover.h): records on
 * fd (not owned) from state. NULL, with a sentence in error, when state
 * cannot be carried on.
 */
struct handover_tls;
struct tls_stream *tls_stream_from_handover(const struct handover_tls *state, int fd,
	char *error, size_t error_size);
/*
 * Plaintext on fd (not owned), as a stream: a client whose TLS
 * oriel-gateway keeps, relaying what it decrypts. NULL on failure.
 */
struct tls_stream *tls_stream_plain(int fd);
void tls_stream_destroy(struct tls_stream *stream);

/*
 * Sends up to one record of buf. -1 with EAGAIN when the socket did not
 * take it all: call again (buf is then ignored) until it returns the
 * count; -1 with EPIPE when the client is gone.
 */
ssize_t tls_stream_send(struct tls_stream *stream, const void *buf, size_t len);
/* Like recv: -1 with EAGAIN, or another errno when the client is gone or broke TLS. */
ssize_t tls_stream_recv(struct tls_stream *stream, void *buf, size_t len);

#endif
