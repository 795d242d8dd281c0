/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_TLS_RECORD_H
#define ORIEL_REMOTE_TLS_RECORD_H

/*
 * A TLS connection's record layer, carried on in another process.
 *
 * GnuTLS cannot hand a live session to another process, and this kernel
 * has no kernel TLS to take it. But once the handshake is done, TLS 1.3,
 * and TLS 1.2 with an AEAD cipher (AES-GCM, ChaCha20-Poly1305), are only
 * sealed records: the gateway exports the traffic keys, IVs and sequence
 * numbers (tls_record_export), and the user's session seals and opens
 * the records from there with GnuTLS's ciphers. The client cannot tell.
 * TLS 1.2 stays because libvncclient's viewers (Remmina's among them) do
 * not offer 1.3. What is not carried on: KeyUpdate and renegotiation (a
 * client that asks for one is dropped; viewers send little, far below any
 * key's limit).
 *
 * Pure: no wlroots.
 */

#include <gnutls/gnutls.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "remote/handover.h"

/* The biggest plaintext of one record. */
#define TLS_RECORD_PLAINTEXT_MAX 16384
/* The most records tls_record_send seals for one send(). */
#define TLS_RECORD_SEND_RECORDS 16

struct tls_record;

/*
 * The state of a TLS 1.3 or 1.2 session whose handshake is done and
 * whose received plaintext was all read (gnutls_record_check_pending is
 * 0). False, with a sentence in error, for another version or cipher.
 */
bool tls_record_export(gnutls_session_t session, struct handover_tls *state,
	char *error, size_t error_size);

/* Records on fd (not owned) from state. NULL, with a sentence, when state is unusable. */
struct tls_record *tls_record_import(const struct handover_tls *state, int fd,
	char *error, size_t error_size);
void tls_record_destroy(struct tls_record *record);

/*
 * Like gnutls_record_send on a non-blocking socket, but seals up to
 * TLS_RECORD_SEND_RECORDS records of buf and sends them with one send(). -1 with EAGAIN when the socket did not
 * take all of it: call again (buf is then ignored) until it returns the
 * count. -1 with EPIPE when the client is gone.
 */
ssize_t tls_record_send(struct tls_record *record, const void *buf, size_t len);

/* The most bytes tls_record_seal writes for len bytes. */
size_t tls_record_sealed_max(size_t len);
/*
 * Seals the bytes of iov as records into out (tls_record_sealed_max of
 * them), to be sent as they are, in full, before whatever
 * tls_record_send sends next, which must have nothing left to send. The
 * bytes written, or 0 on failure.
 */
struct iovec;
size_t tls_record_seal(struct tls_record *record, const struct iovec *iov, int iovcnt,
	uint8_t *out);

/*
 * Like recv: the plaintext of the next record, or what is left of it. 0
 * when the client closed (close_notify or end of stream), -1 with EAGAIN
 * when no whole record is there yet, EPROTO for a record that does not
 * open or one this layer does not carry on, ECONNRESET for an alert.
 */
ssize_t tls_record_recv(struct tls_record *record, void *buf, size_t len);

#endif
