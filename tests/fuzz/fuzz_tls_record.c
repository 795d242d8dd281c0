/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the TLS 1.3 records a session opens after the
 * gateway's hand-over (remote/tls_record.c): what a client sends
 * once it is in. The first byte picks the input's form: raw bytes on the
 * wire (headers, lengths, cut records) for TLS 1.3 or 1.2, or TLS 1.3
 * inner plaintexts that the target seals with the session's key first, so that what comes after
 * the decryption (padding, content types, alerts) is reached too.
 * Besides memory errors it checks that no call returns more than asked,
 * and that sealed application data comes out as it went in.
 */

#include <errno.h>
#include <gnutls/crypto.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "remote/tls_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT 32768
#define MAX_RECORDS 256 /* with their overhead, within the socket's buffer */

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-tls-record: invariant broken: %s\n", what);
		abort();
	}
}

/* TLS 1.2 with AES-GCM: its 4-byte salt and explicit nonces. */
static const struct handover_tls state12 = {
	.version = 0x0303, .cipher = GNUTLS_CIPHER_AES_128_GCM, .key_size = 16, .iv_size = 4,
	.read = { .key = "0123456789abcdef", .iv = "salt", .seq = 7 },
	.write = { .key = "fedcba9876543210", .iv = "tlas", .seq = 0 },
};

static const struct handover_tls state = {
	.version = 0x0304, .cipher = GNUTLS_CIPHER_AES_128_GCM, .key_size = 16, .iv_size = 12,
	.read = { .key = "0123456789abcdef", .iv = "fuzz-iv-0123", .seq = 7 },
	.write = { .key = "fedcba9876543210", .iv = "fuzz-iv-3210", .seq = 0 },
};

/* Seals inner (content, type, padding) as the client would, into out. */
static size_t seal(gnutls_aead_cipher_hd_t cipher, uint64_t seq, const uint8_t *inner,
		size_t len, uint8_t *out) {
	uint8_t nonce[12];
	memcpy(nonce, state.read.iv, 12);
	for (int i = 0; i < 8; i++) {
		nonce[11 - i] ^= (uint8_t)(seq >> (8 * i));
	}
	size_t sealed = len + 16;
	out[0] = 23;
	out[1] = out[2] = 3;
	out[3] = (uint8_t)(sealed >> 8);
	out[4] = (uint8_t)sealed;
	size_t out_len = sealed;
	gnutls_aead_cipher_encrypt(cipher, nonce, 12, out, 5, 16, inner, len, out + 5, &out_len);
	return 5 + out_len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size < 1 || size > MAX_INPUT) {
		return 0;
	}
	int pair[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, pair) < 0) {
		return 0;
	}
	int big = 4 * MAX_INPUT;
	setsockopt(pair[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
	setsockopt(pair[1], SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	/* What application data must come out, when the input is sealed. */
	uint8_t *expected = malloc(MAX_INPUT);
	size_t n_expected = 0;
	bool sealed = (data[0] & 3) == 1;
	bool tls12 = (data[0] & 3) == 2; /* raw bytes against TLS 1.2's records */
	if (!sealed) {
		check(send(pair[0], data + 1, size - 1, 0) == (ssize_t)(size - 1), "raw input sent");
	} else {
		gnutls_datum_t key = { (unsigned char *)state.read.key, 16 };
		gnutls_aead_cipher_hd_t cipher;
		gnutls_aead_cipher_init(&cipher, GNUTLS_CIPHER_AES_128_GCM, &key);
		uint8_t *wire = malloc(2 * MAX_INPUT);
		uint64_t seq = state.read.seq;
		bool clean = true; /* every record so far was whole application data */
		/* Chunks: a length byte, then that many bytes of inner plaintext. */
		int records = 0;
		for (size_t at = 1; at < size && records++ < MAX_RECORDS;) {
			size_t len = data[at++];
			len = len < size - at ? len : size - at;
			const uint8_t *inner = data + at;
			at += len;
			size_t n = seal(cipher, seq++, inner, len, wire);
			check(send(pair[0], wire, n, 0) == (ssize_t)n, "sealed input sent");
			size_t end = len;
			while (end > 0 && inner[end - 1] == 0) {
				end--;
			}
			clean = clean && end > 0 && inner[end - 1] == 23;
			if (clean) {
				memcpy(expected + n_expected, inner, end - 1);
				n_expected += end - 1;
			}
		}
		gnutls_aead_cipher_deinit(cipher);
		free(wire);
	}
	shutdown(pair[0], SHUT_WR);

	char error[160];
	struct tls_record *record = tls_record_import(tls12 ? &state12 : &state, pair[1], error,
		sizeof(error));
	check(record != NULL, "the state imports");
	uint8_t *got = malloc(MAX_INPUT + 64);
	size_t n_got = 0;
	for (;;) {
		uint8_t buf[100];
		ssize_t n = tls_record_recv(record, buf, sizeof(buf));
		check(n <= (ssize_t)sizeof(buf), "no more than asked");
		if (n <= 0) {
			check(n == 0 || errno != EAGAIN, "a cut stream ends, never waits");
			break;
		}
		check(n_got + (size_t)n <= MAX_INPUT, "no more than was sent");
		memcpy(got + n_got, buf, (size_t)n);
		n_got += (size_t)n;
	}
	if (sealed) {
		check(n_got >= n_expected && memcmp(got, expected, n_expected) == 0,
			"sealed application data comes out as it went in");
	}
	tls_record_destroy(record);
	free(got);
	free(expected);
	close(pair[0]);
	close(pair[1]);
	return 0;
}
