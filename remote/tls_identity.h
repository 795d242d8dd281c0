/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_TLS_IDENTITY_H
#define ORIEL_REMOTE_TLS_IDENTITY_H

/*
 * The certificate remote viewers see. Given as files, or generated on
 * first use (ECDSA P-256, self-signed, for this host's names and
 * addresses) and kept with mode 0600 under $XDG_STATE_HOME/oriel/tls/,
 * so that a viewer pinned to it stays pinned. Its SHA-256 fingerprint is
 * what a person compares or pins.
 */

#include <gnutls/gnutls.h>
#include <stdbool.h>
#include <stddef.h>

/* "AB:CD:..." of 32 bytes */
#define TLS_FINGERPRINT_LEN (32 * 3)

struct tls_identity {
	char *cert_path, *key_path;
	bool generated; /* made just now */
	char fingerprint[TLS_FINGERPRINT_LEN];
	gnutls_certificate_credentials_t x509;
	gnutls_anon_server_credentials_t anon;
};

/*
 * cert and key: files, or both NULL for the kept (or a new) pair. False
 * with a sentence in error.
 */
bool tls_identity_init(struct tls_identity *identity, const char *cert, const char *key,
	char *error, size_t error_size);
void tls_identity_finish(struct tls_identity *identity);

/*
 * A non-blocking server session on fd: with the certificate, or
 * anonymous (no certificate: TLS 1.2 with anonymous ECDH, which encrypts
 * but cannot stop a man in the middle). NULL on failure.
 */
gnutls_session_t tls_identity_new_session(struct tls_identity *identity, int fd,
	bool anonymous);

#endif
